import { join, posix } from 'node:path';
import { walkConfined } from '../fs/index.ts';
import type { HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { headerSearchFolder, searchesFolder, withSearchPathFolder } from './searchPathFolder.ts';

/** gcc's words for an #include it cannot find. */
const MISSING_INCLUDE =
  /fatal error: ([\w+-][\w+./-]*\.(?:h|hh|hpp|hxx|h\+\+|inc)): No such file or directory/;
/** Folders of a tree for another system: a header there is not this build's. */
const OTHER_SYSTEM = /^(win(32|64|dows)?|msvc|vc\d*|vs\d*|mac(os)?|osx|os2|amiga|dos|wince|haiku|beos)$/i;
/** A tree's walk stops here: the search is for one header, not an inventory. */
const MAX_ENTRIES = 200_000;

/**
 * A header the build includes that the tree has, in another folder of its own that the failing
 * compile does not search (qonk's src/ui includes "settings.h" from src/): the folder is added to
 * the compiler's search (CPATH, which gcc reads whatever the build system; the cross gcc of the
 * accelerated mode too). Only when exactly one folder of the tree holds it, outside folders for
 * other systems; a header of a Debian package is the package heuristics' (they come first).
 */
export const treeHeaderFolder: RecoveryHeuristic = {
  name: 'tree-header-folder',
  description:
    "add the tree's own folder that holds a header the compile cannot find to the compiler's search",
  match(ctx) {
    const found = MISSING_INCLUDE.exec(ctx.failure.output);
    const name = found?.[1];
    if (!name || name.split('/').includes('..')) return null;
    // a header the tree lacks is generated or a package's: not this repair's
    if (foldersHolding(ctx, name).length === 0) return null;
    return { key: `tree-header:${name}`, reason: `the compiler cannot find ${name}, which the tree has` };
  },
  async apply(ctx, match) {
    const name = match.key.slice('tree-header:'.length);
    const folders = foldersHolding(ctx, name);
    if (folders.length !== 1)
      return {
        applied: false,
        description: `${folders.length} folders of the tree hold ${name} (${folders.slice(0, 3).join(', ')}): not one to choose`,
        commands: [],
      };
    const folder = folders[0] === '.' ? ctx.srcDir : posix.join(ctx.srcDir, folders[0] as string);
    const search = headerSearchFolder(folder);
    if (searchesFolder(ctx.plan, search))
      return { applied: false, description: `CPATH has ${folder} already`, commands: [] };
    return {
      applied: true,
      description: `the tree's ${name} is in ${folder}: CPATH gets it`,
      commands: [],
      plan: withSearchPathFolder(ctx.plan, search),
    };
  },
};

/** The folders of the tree (relative, '.' for its root) that hold `name`, outside other systems' folders. */
function foldersHolding(ctx: HeuristicContext, name: string): string[] {
  let entries: ReturnType<typeof walkConfined>['entries'];
  try {
    entries = walkConfined(join(ctx.sandbox.workspace, 'src'), { maxEntries: MAX_ENTRIES }).entries;
  } catch {
    return [];
  }
  return [
    ...new Set(
      entries
        .filter((e) => e.type === 'file' && (e.path === name || e.path.endsWith(`/${name}`)))
        .map((e) => e.path.slice(0, e.path.length - name.length).replace(/\/$/, '') || '.')
        .filter((f) => !f.split('/').some((part) => OTHER_SYSTEM.test(part))),
    ),
  ];
}
