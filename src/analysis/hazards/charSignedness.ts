import { codeOf, type Finding, type HazardRule, snippetOf } from './HazardRule.ts';

/** `char c`, `char c = …`, `char a, b;` — plain char, not signed/unsigned, not a pointer/array. */
const DECLARATION =
  /(?<!\b(?:unsigned|signed)\s+)\bchar\s+(?!\*)([A-Za-z_]\w*)\s*(?:=|;|,(\s*[A-Za-z_]\w*\s*(?:,\s*[A-Za-z_]\w*\s*)*;)?)/;
const INT_SOURCES =
  '(getc|fgetc|getchar|getc_unlocked|fgetc_unlocked|getchar_unlocked|getopt|getopt_long|getopt_long_only|getch|wgetch)';

/**
 * Plain `char` is unsigned on riscv64 Linux: `char c = getc(f)` never equals EOF, a loop on
 * `!= EOF` runs forever, `c == -1` is always false.
 */
export const charSignedness: HazardRule = {
  kind: 'char-signedness',
  description: 'plain char receiving getc/getopt results or compared with EOF/-1',
  scanFile(file) {
    if (file.language !== 'c' || !/\bchar\b/.test(file.text)) return [];
    const names = new Set<string>();
    for (const line of file.lines) {
      const decl = DECLARATION.exec(codeOf(line));
      if (!decl?.[1]) continue;
      names.add(decl[1]);
      // `char a, b, c;`
      for (const more of (decl[2] ?? '').split(',')) {
        const name = /^\s*([A-Za-z_]\w*)/.exec(more)?.[1];
        if (name) names.add(name);
      }
    }
    if (names.size === 0) return [];
    const alternation = [...names].map((n) => n.replace(/[$]/g, '\\$')).join('|');
    const assigned = new RegExp(
      `(?<![.>]\\s*)\\b(${alternation})\\s*=\\s*(\\([^()]*\\)\\s*)?${INT_SOURCES}\\s*\\(`,
    );
    const declaredFrom = new RegExp(
      `(?<!(unsigned|signed)\\s+)\\bchar\\s+(${alternation})\\s*=\\s*${INT_SOURCES}\\s*\\(`,
    );
    const compared = new RegExp(
      `(?<![.>]\\s*)\\b(${alternation})\\s*[!=]=\\s*(EOF|-\\s*1)\\b|\\b(EOF|-\\s*1)\\s*[!=]=\\s*(${alternation})\\b`,
    );
    const findings: Finding[] = [];
    file.lines.forEach((raw, i) => {
      if (findings.length >= 3) return;
      const line = codeOf(raw);
      const what =
        assigned.test(line) || declaredFrom.test(line)
          ? 'receives an int result'
          : compared.test(line)
            ? 'is compared with EOF/-1'
            : null;
      if (!what) return;
      // the nearest declaration of that name before the use must be the plain char one
      const name = [...names].find((n) => new RegExp(`\\b${n}\\b`).test(line));
      if (!name || !nearestDeclarationIsPlainChar(file.lines, i, name)) return;
      findings.push({
        kind: 'char-signedness',
        severity: 'high',
        file: file.path,
        line: i + 1,
        snippet: snippetOf(raw),
        message: `a plain char ${what}: char is unsigned on riscv64, so EOF (-1) becomes 255 and the test never matches`,
        suggestion: 'declare the variable as int (or build with -fsigned-char as a stopgap)',
      });
    });
    return findings;
  },
};

const TYPE_WORDS =
  '(char|int|long|short|unsigned|signed|size_t|ssize_t|wint_t|wchar_t|int\\d+_t|uint\\d+_t|u?int|bool|_Bool|auto|gint|guint|gchar|u_char|UChar|uchar)';

/** Walks back from the use to the closest declaration of `name` and checks it is plain `char`. */
function nearestDeclarationIsPlainChar(lines: readonly string[], index: number, name: string): boolean {
  const declaration = new RegExp(`\\b${TYPE_WORDS}\\b[\\w\\s,=*()'-]*?\\b${name}\\b\\s*(=[^=]|;|,|\\[|\\))`);
  for (let i = index; i >= 0 && i >= index - 400; i--) {
    const line = codeOf(lines[i] ?? '');
    if (!declaration.test(line)) continue;
    const match = declaration.exec(line)?.[0] ?? '';
    if (i === index && !/\bchar\s+\w+\s*=/.test(match)) continue; // a use, not a declaration
    return (
      /(^|[^\w])char\b/.test(match) && !/\b(unsigned|signed)\s+char\b/.test(match) && !match.includes('*')
    );
  }
  return false;
}
