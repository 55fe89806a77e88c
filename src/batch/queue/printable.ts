/** C0 and C1 control characters but the newline: escape sequences a terminal would obey. */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

/**
 * Text from a queue (a job's SOURCE, a worker's message) as it may reach a terminal or a report:
 * control characters are shown as `\uXXXX` instead of moving the cursor or retitling the window.
 */
export function printable(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.codePointAt(0) ?? 0;
    out += isControl(code) ? `\\u${code.toString(16).padStart(4, '0')}` : c;
  }
  return out;
}
