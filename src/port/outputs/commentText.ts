/**
 * Text safe to put after `#` in a script or Dockerfile: one line of printable characters (a
 * newline in a comment would end it and start a command).
 */
export function commentText(text: string, max = 200): string {
  const oneLine = text.replace(/[^\x20-\x7e]+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…`.replace(/[^\x20-\x7e]/g, '') : oneLine;
}
