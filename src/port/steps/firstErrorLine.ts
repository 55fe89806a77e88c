/**
 * Lines a compiler prints around a diagnostic that are not the diagnostic: gcc's quote of the
 * source line (`    5 |   code`) and its caret (`      |   ^~~~`), the include chain, the
 * function a diagnostic is in. Their text is the program's own (string literals, identifiers), so
 * it says nothing about what failed.
 */
const SOURCE_QUOTE = /^\s*\d*\s*\|/;
const DIAGNOSTIC_FRAME =
  /^In file included from |^\s+from \S+:\d+(:\d+)?[,:]$|: In (member |static member )?(function|constructor|destructor|instantiation|lambda)\b|: At (top level|global scope):$|^compilation terminated\.$/;

/** A warning or a note (unless it is a warning turned error): not the failure. */
function isWarningOrNote(line: string): boolean {
  const warning = line.search(/\b(warning|note)\s*(\[[^\]]*\])?:/i);
  if (warning === -1) return false;
  const error = line.search(/\berror\b\s*(\[[^\]]*\])?:/i);
  return error === -1 || warning < error;
}

/** True for a line that only frames, quotes or comments on a diagnostic. */
export function isContextLine(line: string): boolean {
  return SOURCE_QUOTE.test(line) || DIAGNOSTIC_FRAME.test(line.trim()) || isWarningOrNote(line);
}

/** The lines of a failed command's output that can say what failed. */
export function diagnosticLines(output: string): string[] {
  return output.split('\n').filter((line) => line.trim() !== '' && !isContextLine(line));
}

/**
 * What a real error line looks like, per tool. The compiler (`file:line: error:`, `cc1: error:`,
 * `fatal error:`), the linker, make, configure, CMake, meson, pkg-config, the shell, Python.
 */
const ERROR_LINE: readonly RegExp[] = [
  /:\d+(:\d+)?: (fatal )?error:/i,
  /^(\S*\/)?(cc1|cc1plus|cc|c\+\+|gcc|g\+\+|clang|clang\+\+|as|f951)(-\d+)?: (fatal )?error:/,
  /\bfatal error:/i,
  /undefined reference to|multiple definition of|relocation truncated to fit/,
  /(^|\/)ld(\.bfd|\.gold|\.lld)?: .*(cannot find|error)/,
  /^collect2: error:/,
  /^(\S*\/)?g?make(\[\d+\])?: \*\*\* /,
  // a Makefile's own $(error …): `GNUmakefile:16: *** You need to set X before compiling!.  Stop.`
  /^\S+:\d+: \*\*\* .*\bStop\.$/,
  /^configure: error:/,
  // configure scripts that stop with a notice block of their own (`configure: *** Please install
  // the dahdi-linux package. ***`, then exit 1): a line of it that asks for something
  /^configure: \*+ .*\b(requires?|install|not found|missing|needs?|cannot|unable)\b/i,
  /^CMake Error\b/,
  /^(\S+:\d+:\d+: )?ERROR: /,
  /^error: /i,
  // pkg-config, the shell, Python
  /^Package '[^']+',? (required by '[^']*', )?not found|^No package '[^']+' found/,
  /^\S+: (\d+: |line \d+: )?[\w+.-]+: (command )?not found$/,
  /^[A-Z]\w*(Error|Exception): /,
  // Go: the compiler (`./x.go:12:3: undefined: y`) and the go command (`go: …`, `cannot write
  // test binary …`, `cannot find package …`, `no required module provides package …`)
  /^\S+\.go:\d+(:\d+)?: /,
  /^go: /,
  /^(cannot (find|load|write|use) |no required module provides package |package \S+ is not in )/,
  // Rust: rustc's coded errors (`error[E0432]: unresolved import`)
  /^error\[E\d+\]: /,
  // installing packages: dpkg names the package whose script stopped, apt sums up
  /^dpkg: error\b/,
  /^E: /,
];

export interface ErrorLine {
  text: string;
  /** Its index among the output's lines. */
  index: number;
}

/**
 * The start of the message under a `CMake Error at` line: its first line, and when that only
 * leads into what follows (`Cannot find source file:`, `The source directory`), the lines that
 * say what, where CMake puts the path on a line of its own.
 */
function cmakeMessageHead(lines: readonly string[], from: number): string | null {
  const message: string[] = [];
  for (let j = from; j < lines.length && message.length < 4; j++) {
    const line = lines[j] ?? '';
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) break;
    message.push(line.trim());
    const first = message[0] as string;
    const leadIn = first.endsWith(':')
      ? message.length < 2
      : first.split(/\s+/).length < 4 && !/[.!]$/.test(line.trim());
    if (!leadIn) break;
  }
  return message.length > 0 ? message.join(' ') : null;
}

/**
 * The first real error line of a failed command's output, or null when it has none: what the
 * error record names and its signature is made from. Warnings, notes and quoted source lines
 * are passed over even when they come last. CMake puts the message under its `CMake Error at`
 * line, so the start of the message is joined to it.
 */
export function firstErrorLine(output: string): ErrorLine | null {
  const lines = output.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || isContextLine(line)) continue;
    if (!ERROR_LINE.some((p) => p.test(line))) continue;
    const text = line.trim();
    if (/^CMake Error\b.*:$/.test(text)) {
      const message = cmakeMessageHead(lines, i + 1);
      if (message) return { text: `${text} ${message}`, index: i };
    }
    return { text, index: i };
  }
  return null;
}
