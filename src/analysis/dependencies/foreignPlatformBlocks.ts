/**
 * Which lines of a build file sit in a branch taken only on another operating system
 * (`if host_machine.system() == 'windows'` in meson, `if(WIN32)` or `if(APPLE)` in CMake). A
 * dependency asked for there (winmm, a Windows SDK header, a macOS framework, llvm-dlltool for
 * MinGW import libraries) is not one a riscv64 Linux build needs, and must neither be installed
 * nor reported as missing.
 */

/**
 * What a branch condition says on Linux: never true there (`foreign`), always true there
 * (`linux`: `== 'linux'`, `NOT WIN32`, `UNIX`), or it depends (`unknown`).
 */
export type PlatformOfBranch = 'foreign' | 'linux' | 'unknown';

interface BlockSyntax {
  /** The condition of an `if` line, or null when the line opens no block. */
  opens(line: string): string | null;
  /** The condition of an `elif`/`elseif` line (`''` for `else`), or null. */
  continues(line: string): string | null;
  closes(line: string): boolean;
  platformOf(condition: string): PlatformOfBranch;
}

/** Names of systems that are not Linux, as build files spell them. */
const FOREIGN_SYSTEM =
  /^(windows|win32|win64|cygwin|mingw|msys|darwin|macos|osx|ios|tvos|watchos|android|haiku|sunos|solaris|aix|freebsd|netbsd|openbsd|dragonfly|emscripten|wasi|windowsstore)$/i;

/** A variable a build file names for another system: `is_windows`, `host_is_darwin`, `win32`. */
const FOREIGN_FLAG =
  /^(?:(?:is|host_is|target_is|on|platform|build_for|system_is)_)?(windows|win32|win64|cygwin|mingw|msvc|darwin|macos|osx|apple|android|haiku)$/i;

/** The lines (1-based) that only another operating system's build reads. */
export function foreignPlatformLines(lines: readonly string[], syntax: BlockSyntax): Set<number> {
  const foreign = new Set<number>();
  // one frame per open block: whether its current branch is foreign, and whether an earlier
  // branch is always taken on Linux (then no later branch of the chain ever is)
  const stack: { branchForeign: boolean; linuxTaken: boolean }[] = [];
  const foreignBelow = (depth: number) => stack.slice(0, depth).some((f) => f.branchForeign);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    const opened = syntax.opens(line);
    if (opened !== null) {
      if (foreignBelow(stack.length)) foreign.add(index + 1);
      const platform = syntax.platformOf(opened);
      stack.push({ branchForeign: platform === 'foreign', linuxTaken: platform === 'linux' });
      return;
    }
    const frame = stack.at(-1);
    const continued = frame ? syntax.continues(line) : null;
    if (frame && continued !== null) {
      if (foreignBelow(stack.length - 1)) foreign.add(index + 1);
      const platform = continued === '' ? 'unknown' : syntax.platformOf(continued);
      frame.branchForeign = frame.linuxTaken || platform === 'foreign';
      frame.linuxTaken ||= platform === 'linux';
      return;
    }
    if (frame && syntax.closes(line)) {
      stack.pop();
      return;
    }
    if (foreignBelow(stack.length)) foreign.add(index + 1);
  });
  return foreign;
}

/** `and` parts: foreign if one is, linux if all are; `or` alternatives: linux if one is, foreign if all are. */
function combine(
  condition: string,
  part: (p: string) => PlatformOfBranch,
  and: RegExp,
  or: RegExp,
): PlatformOfBranch {
  const alternatives = condition.split(or).map((alternative): PlatformOfBranch => {
    const parts = alternative.split(and).map((p) => part(unwrap(p)));
    if (parts.includes('foreign')) return 'foreign';
    return parts.every((p) => p === 'linux') ? 'linux' : 'unknown';
  });
  if (alternatives.includes('linux')) return 'linux';
  return alternatives.every((a) => a === 'foreign') ? 'foreign' : 'unknown';
}

function unwrap(part: string): string {
  let p = part.trim();
  while (/^\((.*)\)$/.test(p)) p = p.slice(1, -1).trim();
  return p;
}

const negate = (p: PlatformOfBranch): PlatformOfBranch =>
  p === 'foreign' ? 'linux' : p === 'linux' ? 'foreign' : 'unknown';

const isLinux = (name: string) => /^linux$/i.test(name);

/** The platform of one system name: `linux`, another system, or unknown. */
const systemNamed = (name: string): PlatformOfBranch =>
  isLinux(name) ? 'linux' : FOREIGN_SYSTEM.test(name) ? 'foreign' : 'unknown';

function mesonPart(part: string): PlatformOfBranch {
  if (/^not\s/.test(part)) return negate(mesonPart(unwrap(part.slice(4))));
  const system = /^host_machine\.system\(\)\s*(==|!=)\s*'([^']+)'$/.exec(part);
  if (system) {
    const named = systemNamed(system[2] ?? '');
    return system[1] === '==' ? named : negate(named);
  }
  const list = /^host_machine\.system\(\)\s+(not\s+)?in\s*\[([^\]]*)\]$/.exec(part);
  if (list) {
    const names = [...(list[2] ?? '').matchAll(/'([^']+)'/g)].map((m) => systemNamed(m[1] ?? ''));
    const inList = names.includes('linux')
      ? 'linux'
      : names.every((n) => n === 'foreign')
        ? 'foreign'
        : 'unknown';
    return list[1] ? negate(inList) : inList;
  }
  return FOREIGN_FLAG.test(part) ? 'foreign' : 'unknown';
}

/** meson: `if …` / `elif …` / `else` / `endif`. */
export const MESON_BLOCKS: BlockSyntax = {
  opens: (line) => /^if\s+(.+?)\s*(#.*)?$/.exec(line)?.[1] ?? null,
  continues: (line) =>
    /^else\s*(#.*)?$/.test(line) ? '' : (/^elif\s+(.+?)\s*(#.*)?$/.exec(line)?.[1] ?? null),
  closes: (line) => /^endif\b/.test(line),
  platformOf: (condition) => combine(condition, mesonPart, /\s+and\s+/, /\s+or\s+/),
};

function cmakePart(part: string): PlatformOfBranch {
  if (/^NOT\s/i.test(part)) return negate(cmakePart(unwrap(part.slice(4))));
  const name = /^"?\$\{(\w+)\}"?$/.exec(part)?.[1] ?? part;
  if (/^(WIN32|MSVC|MINGW|CYGWIN|APPLE|IOS|ANDROID|MSYS|WINDOWS_STORE|EMSCRIPTEN)$/.test(name))
    return 'foreign';
  if (/^(UNIX|LINUX)$/.test(name)) return 'linux';
  const system =
    /^"?\$\{CMAKE_(?:HOST_)?SYSTEM_NAME\}"?\s+STREQUAL\s+"?([\w-]+)"?$/i.exec(part) ??
    /^"?CMAKE_(?:HOST_)?SYSTEM_NAME"?\s+STREQUAL\s+"?([\w-]+)"?$/i.exec(part);
  return system ? systemNamed(system[1] ?? '') : 'unknown';
}

/** The condition of a CMake command line, without its closing parenthesis and comment. */
function cmakeArgs(rest: string): string {
  return rest.replace(/#.*$/, '').trim().replace(/\)$/, '').trim();
}

/** CMake: `if(…)` / `elseif(…)` / `else()` / `endif()`; a condition may go on past its line. */
export const CMAKE_BLOCKS: BlockSyntax = {
  opens: (line) => {
    const m = /^if\s*\((.*)$/i.exec(line);
    return m ? cmakeArgs(m[1] ?? '') : null;
  },
  continues: (line) => {
    if (/^else\s*\(/i.test(line)) return '';
    const m = /^elseif\s*\((.*)$/i.exec(line);
    return m ? cmakeArgs(m[1] ?? '') : null;
  },
  closes: (line) => /^endif\s*\(/i.test(line),
  platformOf: (condition) => combine(condition, cmakePart, /\s+AND\s+/, /\s+OR\s+/),
};
