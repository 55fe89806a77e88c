/**
 * A conservative POSIX-shell reader for commands an LLM proposes: enough of the grammar to find
 * every command that would run (lists, pipelines, subshells, `$(…)`, backticks, process
 * substitution, here-documents) and every redirection target. It does not expand anything; a word
 * that would be expanded is marked `dynamic` so the guard can refuse what it cannot know.
 */

export interface ShellWord {
  /** The word with quotes removed; expansions are left in their literal `$…` form. */
  text: string;
  /**
   * Contains a parameter, arithmetic or command expansion outside single quotes, or an unquoted
   * brace expansion (`{mou,}nt`): what the shell runs is not the text.
   */
  dynamic: boolean;
  /** Contains an unquoted pattern character (`*`, `?`, `[…]`): the shell may replace it with file names. */
  glob: boolean;
}

export interface Redirection {
  op: string;
  fd?: number;
  target: ShellWord;
  /** The body of a here-document (`<<`, `<<-`); `quoted` when its delimiter was quoted (no expansion). */
  heredoc?: { body: string; quoted: boolean };
}

export interface SimpleCommand {
  assignments: ShellWord[];
  words: ShellWord[];
  redirections: Redirection[];
  /** Its standard input is the output of the command before it in a pipeline. */
  piped: boolean;
}

export interface ParsedShell {
  commands: SimpleCommand[];
  /** Sources of `$(…)`, backtick and `<(…)`/`>(…)` substitutions, to be parsed and checked in turn. */
  substitutions: string[];
}

export type ParseResult = { ok: true; parsed: ParsedShell } | { ok: false; error: string };

const CONTROL_OPERATORS = ['&&', '||', ';;', '|&', ';', '&', '|', '(', ')', '\n'];
const REDIRECT_OPERATORS = ['<<<', '<<-', '&>>', '<<', '>>', '>|', '<>', '>&', '<&', '&>', '<', '>'];
/** Reserved words that open or close a compound command; the command after them is still checked. */
const RESERVED_PREFIX = new Set([
  '!',
  '{',
  '}',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
]);

type Token =
  | { kind: 'word'; word: ShellWord }
  | { kind: 'op'; op: string }
  | { kind: 'redirect'; op: string; fd?: number; target: ShellWord; heredoc?: Redirection['heredoc'] };

class ShellSyntaxError extends Error {}

export function parseShell(source: string): ParseResult {
  try {
    return { ok: true, parsed: new Reader(source).read() };
  } catch (error) {
    if (error instanceof ShellSyntaxError) return { ok: false, error: error.message };
    throw error;
  }
}

class Reader {
  private i = 0;
  private readonly substitutions: string[] = [];
  private readonly pendingHeredocs: {
    delimiter: string;
    stripTabs: boolean;
    quoted: boolean;
    token: Extract<Token, { kind: 'redirect' }>;
  }[] = [];

  constructor(private readonly s: string) {}

  read(): ParsedShell {
    const tokens: Token[] = [];
    for (;;) {
      this.skipBlanks();
      if (this.i >= this.s.length) break;
      const c = this.s[this.i];
      if (c === '#') {
        while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
        continue;
      }
      const redirect = this.readRedirect();
      if (redirect) {
        tokens.push(redirect);
        continue;
      }
      const op = CONTROL_OPERATORS.find((candidate) => this.s.startsWith(candidate, this.i));
      // bash's `(( expr ))` evaluates variables as arithmetic, which can run commands.
      if (op === '(' && this.s[this.i + 1] === '(')
        throw new ShellSyntaxError('(( arithmetic commands are not supported');
      if (op) {
        this.i += op.length;
        tokens.push({ kind: 'op', op });
        if (op === '\n') this.readHeredocBodies();
        continue;
      }
      tokens.push({ kind: 'word', word: this.readWord() });
    }
    if (this.pendingHeredocs.length > 0) {
      throw new ShellSyntaxError(`unterminated here-document (${this.pendingHeredocs[0]?.delimiter})`);
    }
    return { commands: splitCommands(tokens), substitutions: this.substitutions };
  }

  private skipBlanks(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (c === '\\' && this.s[this.i + 1] === '\n') this.i += 2;
      else return;
    }
  }

  /** `2>`, `>>`, `&>`, `<<EOF` …; a preceding all-digit word is its file descriptor. */
  private readRedirect(): Token | undefined {
    let j = this.i;
    while (j < this.s.length && /[0-9]/.test(this.s[j] ?? '')) j++;
    const op = REDIRECT_OPERATORS.find((candidate) => this.s.startsWith(candidate, j));
    if (!op) return undefined;
    // `<(` and `>(` are process substitutions, read as words.
    if ((op === '<' || op === '>') && this.s[j + 1] === '(') return undefined;
    const fd = j > this.i ? Number(this.s.slice(this.i, j)) : undefined;
    this.i = j + op.length;
    this.skipBlanks();
    if (this.i >= this.s.length || CONTROL_OPERATORS.some((c) => this.s.startsWith(c, this.i))) {
      throw new ShellSyntaxError(`redirection ${op} without a target`);
    }
    const quotedDelimiter = /['"\\]/.test(this.s.slice(this.i, this.i + 64).split(/[\s;&|<>()]/)[0] ?? '');
    const target = this.readWord();
    const token: Extract<Token, { kind: 'redirect' }> = {
      kind: 'redirect',
      op,
      ...(fd !== undefined ? { fd } : {}),
      target,
    };
    if (op === '<<' || op === '<<-') {
      this.pendingHeredocs.push({
        delimiter: target.text,
        stripTabs: op === '<<-',
        quoted: quotedDelimiter,
        token,
      });
    }
    return token;
  }

  private readHeredocBodies(): void {
    while (this.pendingHeredocs.length > 0) {
      const heredoc = this.pendingHeredocs.shift();
      if (!heredoc) break;
      const bodyLines: string[] = [];
      for (;;) {
        if (this.i >= this.s.length)
          throw new ShellSyntaxError(`unterminated here-document (${heredoc.delimiter})`);
        const end = this.s.indexOf('\n', this.i);
        const line = this.s.slice(this.i, end === -1 ? this.s.length : end);
        this.i = end === -1 ? this.s.length : end + 1;
        const compared = heredoc.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared === heredoc.delimiter) break;
        bodyLines.push(heredoc.stripTabs ? compared : line);
      }
      const body = bodyLines.join('\n');
      heredoc.token.heredoc = { body, quoted: heredoc.quoted };
      if (!heredoc.quoted && /\$\(|`/.test(body)) {
        throw new ShellSyntaxError('command substitution inside an unquoted here-document');
      }
    }
  }

  private readWord(): ShellWord {
    let text = '';
    let dynamic = false;
    // The word with every quoted or expanded character replaced by `q`: what the shell still
    // interprets (patterns, braces) is what is left.
    let shape = '';
    const start = this.i;
    while (this.i < this.s.length) {
      const c = this.s[this.i] as string;
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') break;
      if (c === '\\') {
        if (this.s[this.i + 1] === '\n') {
          this.i += 2;
          continue;
        }
        text += this.s[this.i + 1] ?? '';
        shape += 'q';
        this.i += 2;
        continue;
      }
      if (c === "'") {
        const end = this.s.indexOf("'", this.i + 1);
        if (end === -1) throw new ShellSyntaxError('unterminated single quote');
        text += this.s.slice(this.i + 1, end);
        shape += 'q';
        this.i = end + 1;
        continue;
      }
      if (c === '"') {
        this.i++;
        shape += 'q';
        for (;;) {
          if (this.i >= this.s.length) throw new ShellSyntaxError('unterminated double quote');
          const d = this.s[this.i] as string;
          if (d === '"') {
            this.i++;
            break;
          }
          if (d === '\\' && '$`"\\\n'.includes(this.s[this.i + 1] ?? '')) {
            if (this.s[this.i + 1] !== '\n') text += this.s[this.i + 1];
            this.i += 2;
            continue;
          }
          if (d === '$' || d === '`') {
            const expansion = this.readExpansion();
            text += expansion;
            dynamic = true;
            continue;
          }
          text += d;
          this.i++;
        }
        continue;
      }
      if (c === '$' || c === '`') {
        text += this.readExpansion();
        shape += 'q';
        dynamic = true;
        continue;
      }
      if ((c === '<' || c === '>') && this.s[this.i + 1] === '(') {
        const inner = this.readBalanced(this.i + 2, ')');
        this.substitutions.push(inner.body);
        text += this.s.slice(this.i, inner.end);
        shape += 'q';
        this.i = inner.end;
        dynamic = true;
        continue;
      }
      if (CONTROL_OPERATORS.some((op) => op !== '\n' && this.s.startsWith(op, this.i))) break;
      if (c === '<' || c === '>') break;
      if (c === '&' && this.s[this.i + 1] === '>') break;
      text += c;
      shape += c;
      this.i++;
    }
    if (this.i === start)
      throw new ShellSyntaxError(`unexpected character ${JSON.stringify(this.s[this.i])}`);
    if (/\{[^{}]*(,|\.\.)[^{}]*\}/.test(shape)) dynamic = true;
    return { text, dynamic, glob: /[*?]|\[.*\]/.test(shape) };
  }

  /** At `$` or a backtick: consumes one expansion and returns its source text. */
  private readExpansion(): string {
    const from = this.i;
    const c = this.s[this.i];
    if (c === '`') {
      let j = this.i + 1;
      let body = '';
      for (;;) {
        if (j >= this.s.length) throw new ShellSyntaxError('unterminated backtick');
        const d = this.s[j] as string;
        if (d === '`') break;
        if (d === '\\' && '$`\\'.includes(this.s[j + 1] ?? '')) {
          body += this.s[j + 1];
          j += 2;
          continue;
        }
        body += d;
        j++;
      }
      this.substitutions.push(body);
      this.i = j + 1;
      return this.s.slice(from, this.i);
    }
    const next = this.s[this.i + 1];
    if (next === '(' && this.s[this.i + 2] === '(') {
      const inner = this.readBalanced(this.i + 3, ')');
      if (this.s[inner.end] !== ')') throw new ShellSyntaxError('unterminated arithmetic expansion');
      if (/\$\(|`/.test(inner.body)) throw new ShellSyntaxError('command substitution inside arithmetic');
      this.i = inner.end + 1;
      return this.s.slice(from, this.i);
    }
    if (next === '(') {
      const inner = this.readBalanced(this.i + 2, ')');
      this.substitutions.push(inner.body);
      this.i = inner.end;
      return this.s.slice(from, this.i);
    }
    if (next === '{') {
      const inner = this.readBalanced(this.i + 2, '}');
      if (/\$\(|`/.test(inner.body))
        throw new ShellSyntaxError('command substitution inside a parameter expansion');
      this.i = inner.end;
      return this.s.slice(from, this.i);
    }
    // $name, $1, $?, $$ … or a lone `$`.
    const simple = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])?/.exec(this.s.slice(this.i));
    this.i += simple?.[0].length ?? 1;
    return this.s.slice(from, this.i);
  }

  /** From `start` (just inside an opener) to the matching closer, skipping quoted text. */
  private readBalanced(start: number, closer: ')' | '}'): { body: string; end: number } {
    const opener = closer === ')' ? '(' : '{';
    let depth = 1;
    let j = start;
    while (j < this.s.length) {
      const d = this.s[j];
      if (d === '\\') {
        j += 2;
        continue;
      }
      if (d === "'") {
        const end = this.s.indexOf("'", j + 1);
        if (end === -1) throw new ShellSyntaxError('unterminated single quote');
        j = end + 1;
        continue;
      }
      if (d === '"') {
        j++;
        while (j < this.s.length && this.s[j] !== '"') j += this.s[j] === '\\' ? 2 : 1;
        if (j >= this.s.length) throw new ShellSyntaxError('unterminated double quote');
        j++;
        continue;
      }
      if (d === opener) depth++;
      if (d === closer) {
        depth--;
        if (depth === 0) return { body: this.s.slice(start, j), end: j + 1 };
      }
      j++;
    }
    throw new ShellSyntaxError(`unterminated ${opener === '(' ? '$(' : '$' + '{'}`);
  }
}

function splitCommands(tokens: Token[]): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  const empty = (piped: boolean): SimpleCommand => ({ assignments: [], words: [], redirections: [], piped });
  let current = empty(false);
  const flush = (piped: boolean) => {
    if (current.words.length > 0 || current.assignments.length > 0 || current.redirections.length > 0) {
      commands.push(current);
    }
    // `a | { sh; }`, `a | (sh)`: the pipe feeds the commands inside the group.
    current = empty(piped || (current.piped && current.words.length === 0));
  };
  for (const token of tokens) {
    if (token.kind === 'op') {
      if (token.op === ';;') throw new ShellSyntaxError('case statements are not supported');
      flush(token.op === '|' || token.op === '|&' || (token.op === '(' && current.piped));
      continue;
    }
    if (token.kind === 'redirect') {
      current.redirections.push({
        op: token.op,
        ...(token.fd !== undefined ? { fd: token.fd } : {}),
        target: token.target,
        ...(token.heredoc ? { heredoc: token.heredoc } : {}),
      });
      continue;
    }
    const { word } = token;
    if (current.words.length === 0) {
      if (RESERVED_PREFIX.has(word.text) && !word.dynamic) continue;
      if (/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(word.text)) {
        current.assignments.push(word);
        continue;
      }
      if (word.text === 'case' || word.text === 'function') {
        throw new ShellSyntaxError(`${word.text} is not supported`);
      }
    }
    current.words.push(word);
  }
  flush(false);
  return commands;
}
