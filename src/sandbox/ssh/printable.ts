/** C0 controls but tab and newline, DEL and the C1 controls (terminals act on all of them). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Remote text made safe to put in a message: control characters (terminal escapes among them)
 * shown as `\xNN`, lines kept, length bounded. What a remote prints is data, never instructions
 * to the user's terminal.
 */
export function printable(text: string, max = 2000): string {
  const cut = text.length > max ? `…${text.slice(-max)}` : text;
  return cut.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
