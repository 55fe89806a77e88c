/**
 * The lines of a recipe's code blocks (``` or ~~~ fences) that are not among the `allowed` lines:
 * commands the port never ran, which a summarizer must not add. Blank lines and `#` comments are
 * allowed, and a leading shell prompt (`$ `) is ignored.
 */
export function inventedRecipeCommands(text: string, allowed: Iterable<string>): string[] {
  const known = new Set([...allowed].map((line) => line.trim()));
  return [...new Set(codeBlockLines(text))].filter((line) => !known.has(line));
}

/** The command lines inside the fenced code blocks of a Markdown text, trimmed. */
export function codeBlockLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const raw of markdown.split('\n')) {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(raw)?.[1];
    if (fence === null) {
      if (opener) fence = opener;
      continue;
    }
    if (opener && opener[0] === fence[0] && opener.length >= fence.length && raw.trim() === opener) {
      fence = null;
      continue;
    }
    const line = raw.trim().replace(/^\$\s+/, '');
    if (line && !line.startsWith('#')) lines.push(line);
  }
  return lines;
}
