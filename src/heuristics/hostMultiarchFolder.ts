import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { shellQuote } from '../process/shellQuote.ts';
import { withPrepareCommands } from './planEdits.ts';
import type { HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

/**
 * A build file that hard-codes x86_64's Debian multiarch folder (`/usr/include/x86_64-linux-gnu`,
 * `/usr/lib/x86_64-linux-gnu`, or the bare name joined to a folder: Image::Scale's Makefile.PL
 * reads `catfile($incdir, 'x86_64-linux-gnu', 'jconfig.h')`), and a failure that names such a
 * path (`Unable to read /usr/include/x86_64-linux-gnu/jconfig.h`, `cannot find
 * /usr/lib/x86_64-linux-gnu/libz.so`). riscv64's folder is `riscv64-linux-gnu`: a prepare command
 * rewrites the name in the build files that have it — the one the error names, else those of the
 * build's folder. Idempotent: a rewritten file has nothing left to rewrite.
 */
const HOST_TRIPLET = 'x86_64-linux-gnu';
const RISCV64_TRIPLET = 'riscv64-linux-gnu';
/** A path with x86_64's multiarch folder in it (not x86_64-linux-gnux32, not x86_64-pc-linux-gnu). */
const HOST_PATH = /(?:\/[\w.+-]+)*\/x86_64-linux-gnu(?![\w+-])(?:\/[\w.+-]+)*/;
/** The name in a file's text, as a word. */
const HOST_WORD = /x86_64-linux-gnu(?![\w+-])/;
/** The sed that rewrites it: the name followed by anything but a word character, or at the end. */
const REWRITE = `sed -i -E ${shellQuote(`s/x86_64-linux-gnu([^[:alnum:]_+-]|$)/${RISCV64_TRIPLET}\\1/g`)}`;

/** Build files the name may be in, as generated and as run (never sources). */
const BUILD_FILE =
  /^(Makefile\.PL|Build\.PL|Makefile|makefile|GNUmakefile|Makefile\.in|configure|CMakeLists\.txt|meson\.build|.*\.mk|.*\.mak|.*\.cmake)$/;
/** The inputs of autotools' generated files: rewritten only when the plan generates them again. */
const AUTOTOOLS_INPUT = /^(configure\.ac|configure\.in|Makefile\.am)$/;
/** How deep under the build's folder build files are looked for, and how many at most. */
const MAX_DEPTH = 3;
const MAX_FILES = 200;
/** Folders that hold no build files of this build. */
const SKIPPED_FOLDERS = new Set(['.git', '.svn', '.hg', 'debian', 'node_modules']);

/** A file the error names relative to the build's folder (`Makefile:12:`, `at Makefile.PL line 40`). */
const NAMED_FILE = /(?:^|\s)([\w./+-]+?)(?::\d+:| line \d+)/gm;

export const hostMultiarchFolder: RecoveryHeuristic = {
  name: 'host-multiarch-folder',
  description: `rewrite x86_64's multiarch folder (${HOST_TRIPLET}) to riscv64's in the build files that hard-code it`,
  async match(ctx) {
    const path = HOST_PATH.exec(ctx.failure.output)?.[0];
    if (!path) return null;
    const files = await filesNamingHost(ctx);
    if (files.length === 0) return null;
    return {
      key: `multiarch:${HOST_TRIPLET}`,
      reason: `the build looked in x86_64's multiarch folder (${path}), which ${files.join(', ')} name${files.length === 1 ? 's' : ''}`,
    };
  },
  async apply(ctx) {
    const files = await filesNamingHost(ctx);
    if (files.length === 0)
      return { applied: false, description: `no build file names ${HOST_TRIPLET}`, commands: [] };
    const commands = [multiarchRewriteCommand(files)];
    return {
      applied: true,
      description: `${HOST_TRIPLET} becomes ${RISCV64_TRIPLET} in ${files.join(', ')}`,
      commands,
      plan: withPrepareCommands(ctx.plan, commands),
    };
  },
};

/** The prepare command (run in the build's folder) that rewrites the name in these files. */
export function multiarchRewriteCommand(files: readonly string[]): string {
  return `${REWRITE} -- ${files.map(shellQuote).join(' ')}`;
}

/**
 * The build files, relative to the build's folder, that name x86_64's multiarch folder: the ones
 * the error names when they do, else every one of the folder (a few levels down). Inputs of
 * autotools come before their outputs, and only where the plan runs the bootstrap again.
 */
async function filesNamingHost(ctx: HeuristicContext): Promise<string[]> {
  const regenerates = ctx.plan.phases.some((p) => p.name === 'bootstrap');
  const wanted = (name: string) => BUILD_FILE.test(name) || (regenerates && AUTOTOOLS_INPUT.test(name));
  const names = async (rels: readonly string[]) => {
    const out: string[] = [];
    for (const rel of rels) {
      const text = await readTreeFile(ctx, rel);
      if (text !== null && HOST_WORD.test(text)) out.push(rel);
    }
    return out.sort((a, b) => rank(a) - rank(b));
  };
  const named = [...ctx.failure.output.matchAll(NAMED_FILE)]
    .map((m) => posix.normalize(m[1] as string))
    .filter((rel) => !rel.startsWith('/') && !rel.startsWith('..') && wanted(posix.basename(rel)));
  const fromError = await names([...new Set(named)]);
  if (fromError.length > 0) return fromError;
  return names(await buildFiles(ctx, wanted));
}

const rank = (rel: string) => (AUTOTOOLS_INPUT.test(posix.basename(rel)) ? 0 : 1);

/** The build files under the build's folder (no symbolic links followed: they are neither file nor folder here). */
async function buildFiles(ctx: HeuristicContext, wanted: (name: string) => boolean): Promise<string[]> {
  const root = join(ctx.sandbox.workspace, 'src', ctx.plan.dir);
  const found: string[] = [];
  const walk = async (rel: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (found.length >= MAX_FILES) return;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isFile() && wanted(entry.name)) found.push(path);
      else if (entry.isDirectory() && depth < MAX_DEPTH && !SKIPPED_FOLDERS.has(entry.name))
        await walk(path, depth + 1);
    }
  };
  await walk('', 0);
  return found;
}
