/**
 * qmake's platform scopes: `macx { OBJECTIVE_SOURCES += cocoa.mm }`, `win32:LIBS += -lws2_32`.
 * A scope is a condition; one that names only other systems (macx, ios, win32, android…) is
 * never true on riscv64 Linux, so what it holds is not this build's.
 */
const FOREIGN_SCOPE =
  /^(macx(-[\w+.-]+)?|mac|macos|osx|darwin|ios|tvos|watchos|uikit|win32(-[\w+.-]+)?|win64|winrt|mingw|msvc|cygwin|android|haiku|qnx|integrity|vxworks|wasm|emscripten|freebsd|openbsd|netbsd)$/i;

/** Whether a scope condition (`macx`, `win32|macx`, `macx:!ios`) is never true on Linux. */
export function foreignScope(condition: string): boolean {
  return condition.split(':').some((term) => {
    const t = term.trim();
    if (t === '' || t.startsWith('!')) return false;
    return t.split('|').every((alt) => FOREIGN_SCOPE.test(alt.trim()));
  });
}

const BLOCK = /^([\w!|:.+-]+?)\s*:?\s*\{\s*(#.*)?$/;
const SINGLE = /^((?:[\w!|.+-]+\s*:\s*)+)\S/;
const ELSE = /^\}\s*else\s*(?::\s*([\w!|:.+-]+?))?\s*:?\s*\{\s*(#.*)?$/;

/** A qmake file without what its foreign-platform scopes hold (their lines become empty). */
export function withoutForeignScopes(text: string): string {
  const out: string[] = [];
  let depth = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (depth > 0) {
      const orElse = depth === 1 ? ELSE.exec(line) : null;
      if (orElse) {
        if (!orElse[1] || !foreignScope(orElse[1])) depth = 0;
        out.push('');
        continue;
      }
      depth += count(line, '{') - count(line, '}');
      out.push('');
      continue;
    }
    const block = BLOCK.exec(line);
    if (block?.[1] && foreignScope(block[1])) {
      depth = 1;
      out.push('');
      continue;
    }
    const single = SINGLE.exec(line);
    if (single?.[1] && foreignScope(single[1].replace(/:\s*$/, ''))) {
      out.push('');
      continue;
    }
    out.push(raw);
  }
  return out.join('\n');
}

function count(line: string, ch: string): number {
  let n = 0;
  for (const c of line.replace(/#.*/, '')) if (c === ch) n++;
  return n;
}
