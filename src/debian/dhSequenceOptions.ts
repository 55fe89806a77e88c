import { joinContinuedLines, makeWords } from './makeText.ts';

/** An option dh hands on to each debhelper command, as dh_auto_test accepts it. */
const PASSED_ON =
  /^(--builddirectory=|--buildsystem=|--sourcedirectory=|--sourcedir=|--max-parallel=|-B|-S|-D)[A-Za-z0-9._/+-]*$|^--(parallel|no-parallel)$/;

/**
 * The options a debian/rules gives dh on its sequence line (`dh $@ --builddirectory=_build
 * --buildsystem=golang --with=golang`) that dh hands on to the debhelper commands it runs
 * (`-O--builddirectory=_build`, …): a debhelper command run alone, outside dh's sequence, needs
 * them to find the build (dh_auto_test otherwise looks in obj-riscv64-linux-gnu). Sequence
 * addons (`--with`, `--without`) are dh's own; options that make would expand are left out.
 */
export function dhSequenceOptions(rules: string): string[] {
  const joined = joinContinuedLines(rules);
  const line = /^\t[ \t]*dh[ \t]+\$(?:@|\(@\)|\{@\})([^\n]*)$/m.exec(joined)?.[1] ?? '';
  const words = makeWords(line);
  const options: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    // `--buildsystem cmake`, `-B build`: the value as a word of its own
    const next = words[i + 1];
    const joinedWord =
      /^(--builddirectory|--buildsystem|--sourcedirectory|--sourcedir|-B|-S|-D)$/.test(word) && next
        ? `${word}${word.startsWith('--') ? '=' : ''}${next}`
        : word;
    if (joinedWord !== word) i++;
    if (PASSED_ON.test(joinedWord)) options.push(joinedWord);
  }
  return options;
}

/** The same options as dh passes them through an override target: DH_INTERNAL_OPTIONS' items. */
export function dhInternalOptions(options: readonly string[]): string[] {
  return ['-a', ...options.map((o) => `-O${o}`)];
}
