import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * What the recorder cannot see: the host type compiled into bash and make reaches a build through
 * shell variables and make variables, never through a program's argv, and bash's builtin printf
 * formats floats through `long double`. So the build's own text (sources, configure, the
 * generated Makefiles and scripts) is searched for them after the build. The one use that is
 * known to be harmless is automake's `am__is_gnu_make`, which only tests that MAKE_HOST is set.
 */
const PATTERNS: ReadonlyArray<{
  re: RegExp;
  what: string;
  harmless?: RegExp;
  /** Not looked for in a compiled language's sources (SOURCE_FILE). */
  notInSources?: boolean;
  bashOnly?: boolean;
}> = [
  {
    re: /\b(HOSTTYPE|MACHTYPE|BASH_VERSINFO)\b/,
    what: 'reads bash’s compiled-in host type',
    // a program cannot read a shell variable: bash's values reach it only through its environment
    // (bash sets them without exporting them) or through shell or make text that names them
    // (`export HOSTTYPE`, `-DHOST="$$MACHTYPE"`), and that text is searched too; so a name in C,
    // lex or yacc source is no use of them on its own (flex's examples/manual/myname.lex:
    // `%HOSTTYPE { printf("%s",getenv("HOSTTYPE"));}`)
    notInSources: true,
  },
  {
    re: /\bMAKE_HOST\b/,
    what: 'reads make’s compiled-in host type',
    harmless: /test -n '\$\(MAKE_HOST\)'/,
  },
  {
    re: /\bprintf\s+(-v\s+\S+\s+)?(['"])[^'"\n]*%[-+ #0']*([0-9]+|\*)?(\.([0-9]+|\*)?)?[lLh]*[aAeEfFgG]/,
    what: 'formats a float with bash’s builtin printf (long double)',
    bashOnly: true,
  },
];

/** Sources of compiled languages (C, C++, lex, yacc): what they read comes through the program. */
const SOURCE_FILE = /\.(c|h|cc|cpp|cxx|hh|hpp|hxx|l|ll|lex|y|yy)$/;

/** Files larger than this are data, not build text. */
const MAX_TEXT_BYTES = 4 << 20;
const MAX_HITS = 20;

export interface CensusResult {
  /** Text files read. */
  files: number;
  /** `path:line: what`, the first few. */
  hits: string[];
  /** All hits, beyond the ones kept. */
  count: number;
}

/** Searches the text files under `root` (links are not followed) for what the recorder misses. */
export async function censusBuildText(root: string): Promise<CensusResult> {
  const result: CensusResult = { files: 0, hits: [], count: 0 };
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git') await walk(path);
        continue;
      }
      if (!entry.isFile()) continue;
      const text = await readText(path);
      if (text === undefined) continue;
      result.files++;
      censusText(relative(root, path), text, result);
    }
  };
  await walk(root);
  return result;
}

/** Adds the hits in one file's text to `result`. */
export function censusText(path: string, text: string, result: CensusResult): void {
  const bash = /^#!\s*\S*\bbash\b/.test(text) || /\.bash$/.test(path);
  const source = SOURCE_FILE.test(path);
  const lines = text.split('\n');
  for (const pattern of PATTERNS) {
    if ((pattern.bashOnly && !bash) || (pattern.notInSources && source)) continue;
    if (!pattern.re.test(text)) continue;
    lines.forEach((line, i) => {
      if (!pattern.re.test(line) || pattern.harmless?.test(line)) return;
      result.count++;
      if (result.hits.length < MAX_HITS) result.hits.push(`${path}:${i + 1}: ${pattern.what}`);
    });
  }
}

/** The file's text, or undefined for a binary (a NUL in its first 8 KB) or oversized one. */
async function readText(path: string): Promise<string | undefined> {
  const info = await lstat(path);
  if (!info.isFile() || info.size > MAX_TEXT_BYTES) return undefined;
  // the tree is the build's: a link swapped in for a file is not followed out of it
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const buffer = Buffer.alloc(info.size);
    const { bytesRead } = await handle.read(buffer, 0, info.size, 0);
    const data = buffer.subarray(0, bytesRead);
    if (data.subarray(0, 8192).includes(0)) return undefined;
    return data.toString('latin1');
  } finally {
    await handle.close();
  }
}
