// Escape sequences: CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), and any other ESC pair.
const ESCAPE_SEQUENCE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?|\x9b[0-?]*[ -/]*[@-~]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Text from a build (its output, an error message, a command) made safe to write to a terminal:
 * a hostile repository's build must not be able to clear the screen, move the cursor over
 * rvport's own lines, retitle the window or write to the clipboard (OSC 52). Escape sequences
 * are removed and other control characters shown as `?`; tabs and newlines stay.
 */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '?');
}
