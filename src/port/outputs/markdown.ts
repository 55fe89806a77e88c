/** Small Markdown builders shared by the port's reports. */
export function table(
  header: readonly string[],
  rows: ReadonlyArray<readonly (string | number | null | undefined)[]>,
): string {
  const cell = (v: string | number | null | undefined) =>
    String(v ?? '')
      .replace(/\|/g, '\\|')
      .replace(/\n/g, ' ');
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

export function codeBlock(text: string, lang = ''): string {
  const fence = text.includes('```') ? '~~~~' : '```';
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}

export function seconds(ms: number | undefined): string {
  return ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`;
}
