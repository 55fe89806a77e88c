/** A makefile's text with its `\`-continued lines joined into one, as make reads them. */
export function joinContinuedLines(text: string): string {
  return text.replace(/\\\r?\n/g, ' ');
}

/** The words of a makefile line's rest, without its `#` comment. */
export function makeWords(rest: string): string[] {
  return (rest.split('#')[0] ?? '').trim().split(/\s+/).filter(Boolean);
}
