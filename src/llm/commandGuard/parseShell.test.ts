import { describe, expect, it } from 'vitest';
import { parseShell } from './parseShell.ts';

function parse(source: string) {
  const result = parseShell(source);
  if (!result.ok) throw new Error(result.error);
  return result.parsed;
}
const names = (source: string) => parse(source).commands.map((c) => c.words.map((w) => w.text));

describe('parseShell', () => {
  it('splits lists, pipelines and subshells into simple commands', () => {
    expect(names('./configure && make -j2 || (cd src; make) | tee log & wait')).toEqual([
      ['./configure'],
      ['make', '-j2'],
      ['cd', 'src'],
      ['make'],
      ['tee', 'log'],
      ['wait'],
    ]);
  });

  it('removes quotes and keeps quoted operators inside words', () => {
    expect(names(`echo 'a; mount' "b && c" d\\ e`)).toEqual([['echo', 'a; mount', 'b && c', 'd e']]);
  });

  it('collects command substitutions, backticks and process substitutions', () => {
    const parsed = parse('make -j$(nproc) CC="`which gcc`" && diff <(ls a) b');
    expect(parsed.substitutions).toEqual(['nproc', 'which gcc', 'ls a']);
    expect(parsed.commands[0]?.words[1]).toEqual({ text: '-j$(nproc)', dynamic: true, glob: false });
  });

  it('reads nested substitutions whole', () => {
    expect(parse('echo $(dirname $(which gcc))').substitutions).toEqual(['dirname $(which gcc)']);
  });

  it('reads redirections with descriptors and joined targets', () => {
    const [command] = parse('make 2>&1 >build.log 2> /dev/null &>>all.log <input').commands;
    expect(command?.words.map((w) => w.text)).toEqual(['make']);
    expect(command?.redirections.map((r) => [r.fd, r.op, r.target.text])).toEqual([
      [2, '>&', '1'],
      [undefined, '>', 'build.log'],
      [2, '>', '/dev/null'],
      [undefined, '&>>', 'all.log'],
      [undefined, '<', 'input'],
    ]);
  });

  it('separates assignments and skips reserved words', () => {
    const parsed = parse('if test -f x; then CFLAGS=-O2 make; fi');
    expect(parsed.commands.map((c) => c.words.map((w) => w.text))).toEqual([['test', '-f', 'x'], ['make']]);
    expect(parsed.commands[1]?.assignments.map((w) => w.text)).toEqual(['CFLAGS=-O2']);
  });

  it('skips here-document bodies', () => {
    const parsed = parse("cat > fix.h <<'EOF'\nmount /dev/sda /mnt\nEOF\nmake");
    expect(parsed.commands.map((c) => c.words.map((w) => w.text))).toEqual([['cat'], ['make']]);
  });

  it('handles comments and line continuations', () => {
    expect(names('make \\\n  install # then mount everything')).toEqual([['make', 'install']]);
  });

  it.each([
    ["echo 'open", 'unterminated single quote'],
    ['echo "open', 'unterminated double quote'],
    ['echo $(ls', 'unterminated'],
    ['cat <<EOF\nno end', 'unterminated here-document'],
    ['cat <<EOF\n$(mount)\nEOF', 'here-document'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source under test, not a template
    ['echo ${X:-$(mount)}', 'parameter expansion'],
    ['case $x in a) mount;; esac', 'case'],
    ['make >', 'without a target'],
  ])('refuses to guess at %j', (source, error) => {
    const result = parseShell(source);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(error);
  });
});

describe('parseShell, what the shell would still expand', () => {
  const word = (source: string) => parse(source).commands[0]?.words[0];

  it('marks unquoted brace expansions dynamic, quoted ones not', () => {
    expect(word('{mou,}nt')?.dynamic).toBe(true);
    expect(word('x{1..3}')?.dynamic).toBe(true);
    expect(word("'{mou,}nt'")?.dynamic).toBe(false);
    expect(word('{}')?.dynamic).toBe(false);
  });

  it('marks unquoted pattern characters as globs', () => {
    expect(word('/bin/m?unt')?.glob).toBe(true);
    expect(word('*.c')?.glob).toBe(true);
    expect(word('"*.c"')?.glob).toBe(false);
    expect(word('\\*')?.glob).toBe(false);
    expect(word('[')?.glob).toBe(false);
  });

  it('keeps here-document bodies and whether their delimiter was quoted', () => {
    const [command] = parse("sh <<'EOF'\nmake\nEOF").commands;
    expect(command?.redirections[0]?.heredoc).toEqual({ body: 'make', quoted: true });
    const [tabbed] = parse('sh <<-EOF\n\tmake\n\tEOF').commands;
    expect(tabbed?.redirections[0]?.heredoc).toEqual({ body: 'make', quoted: false });
  });

  it('marks commands reading a pipe, also inside a group', () => {
    const piped = (source: string) => parse(source).commands.map((c) => c.piped);
    expect(piped('a | b && c')).toEqual([false, true, false]);
    expect(piped('a | { sh; }')).toEqual([false, true]);
    expect(piped('a | (sh)')).toEqual([false, true]);
  });
});
