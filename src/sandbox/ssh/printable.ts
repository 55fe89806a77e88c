/**
 * Remote text made safe to put in a message: control characters (terminal escapes among them)
 * shown as `\xNN`, lines kept, length bounded. What a remote prints is data, never instructions
 * to the user's terminal.
 */
export function printable(text: string, max = 2000): string {
  const cut = text.length > max ? `…${text.slice(-max)}` : text;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
  return cut.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
