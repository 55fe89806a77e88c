import { lstat, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../errors/index.ts';
import { writeJsonAtomic } from '../fs/index.ts';
import { type RecipeEntry, recipeEntrySchema } from './RecipeEntry.ts';

/** A bundle larger than this is refused before it is parsed (a whole cache is far smaller). */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;
/** One entry (recipe, patches, artifacts) larger than this is refused. */
export const MAX_ENTRY_BYTES = 8 * 1024 * 1024;
export const MAX_BUNDLE_ENTRIES = 10_000;
/** Package names as entries store them (derived from a SOURCE, so also upper case and `_`). */
const PACKAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9.+_-]*$/;

export type RecipeCacheErrorCode = 'corrupt-entry' | 'invalid-bundle' | 'unsafe-path';

export class RecipeCacheError extends RvportError {
  override name = 'RecipeCacheError';
  declare readonly code: RecipeCacheErrorCode;
  constructor(code: RecipeCacheErrorCode, message: string, options?: RvportErrorOptions) {
    super(code, message, options);
  }
}

export function isRecipeCacheError(error: unknown): error is RecipeCacheError {
  return isRvportErrorNamed(error, ['RecipeCacheError']);
}

/**
 * Recipes on disk: `<dir>/<package>/<imageId>.json`, one plain JSON file per entry, written
 * atomically, so entries are easy to share or commit and concurrent ports never corrupt them.
 */
export class RecipeCache {
  constructor(readonly dir: string) {}

  private file(pkg: string, imageId: string): string {
    return join(this.dir, pkg, `${imageId}.json`);
  }

  /** The entry; throws RecipeCacheError (CORRUPT_ENTRY) for a file that is not a valid entry. */
  async get(pkg: string, imageId: string): Promise<RecipeEntry | undefined> {
    if (!PACKAGE_NAME.test(pkg) || !PACKAGE_NAME.test(imageId)) return undefined;
    const file = this.file(pkg, imageId);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return parseEntry(text, file);
  }

  /**
   * The entry to reuse for a port: same package, same image, same source (and commit when known).
   * A corrupt entry is no answer: `warn` hears why (a port then runs as if it were missing, and
   * writes a good one over it when it verifies).
   */
  async lookup(
    pkg: string,
    imageId: string,
    source: { spec: string; commit?: string },
    warn: (message: string) => void = () => {},
  ): Promise<RecipeEntry | undefined> {
    let entry: RecipeEntry | undefined;
    try {
      entry = await this.get(pkg, imageId);
    } catch (error) {
      if (!isRecipeCacheError(error)) throw error;
      warn(`${error.message}; ignoring it (rvport cache rm ${pkg} removes it)`);
      return undefined;
    }
    if (!entry || entry.source.spec !== source.spec) return undefined;
    if (source.commit && entry.source.commit && source.commit !== entry.source.commit) return undefined;
    return entry;
  }

  async put(entry: RecipeEntry): Promise<string> {
    const valid = recipeEntrySchema.parse(entry);
    const folder = join(this.dir, valid.package);
    await mkdir(this.dir, { recursive: true });
    await mkdir(folder, { recursive: true });
    // the entry's folder must be the cache's own, not a link to somewhere else
    if (!(await lstat(folder)).isDirectory()) {
      throw new RecipeCacheError(
        'unsafe-path',
        `${folder} is not a plain folder; refusing to write through it`,
      );
    }
    const file = this.file(valid.package, valid.imageId);
    await writeJsonAtomic(file, valid);
    return file;
  }

  /** Every entry, sorted by package; unreadable files are reported, not skipped silently. */
  async list(): Promise<{ entries: RecipeEntry[]; problems: string[] }> {
    const entries: RecipeEntry[] = [];
    const problems: string[] = [];
    for (const pkg of await this.packages()) {
      for (const file of await this.filesOf(pkg)) {
        try {
          entries.push(parseEntry(await readFile(file, 'utf8'), file));
        } catch (error) {
          problems.push((error as Error).message);
        }
      }
    }
    return { entries, problems };
  }

  /**
   * Removes every entry of a package (or one image's), readable or not, so a corrupt entry can be
   * removed too; returns how many files were removed.
   */
  async remove(pkg: string, imageId?: string): Promise<number> {
    if (!PACKAGE_NAME.test(pkg)) return 0;
    const doomed = (await this.filesOf(pkg)).filter(
      (f) => imageId === undefined || f === this.file(pkg, imageId),
    );
    for (const file of doomed) await rm(file, { force: true });
    return doomed.length;
  }

  /** A bundle of entries as one JSON document, for `rvport cache export`. */
  async exportBundle(pkg?: string): Promise<string> {
    const { entries } = await this.list();
    const chosen = pkg ? entries.filter((e) => e.package === pkg) : entries;
    return `${JSON.stringify({ rvportRecipes: 1, entries: chosen }, null, 2)}\n`;
  }

  /**
   * Adds the entries of a bundle (`rvport cache import`, or what a queue worker sent back). A
   * bundle is someone else's data: its size, every entry's shape, names and paths are checked,
   * and with `onlyPackage` every entry must be that package's, before any entry is written.
   */
  async importBundle(
    text: string,
    origin: string,
    options: { onlyPackage?: string } = {},
  ): Promise<RecipeEntry[]> {
    const refuse = (why: string) => new RecipeCacheError('invalid-bundle', `${origin}: ${why}`);
    if (Buffer.byteLength(text) > MAX_BUNDLE_BYTES)
      throw refuse(`larger than ${MAX_BUNDLE_BYTES / 1024 / 1024} MiB; refusing it`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw refuse(`not JSON: ${(error as Error).message}`);
    }
    const list = (parsed as { entries?: unknown })?.entries;
    if (!Array.isArray(list)) throw refuse('not an rvport recipe bundle (no "entries" list)');
    if (list.length > MAX_BUNDLE_ENTRIES) throw refuse(`more than ${MAX_BUNDLE_ENTRIES} entries`);
    const entries = list.map((item, i) => {
      if (JSON.stringify(item).length > MAX_ENTRY_BYTES)
        throw refuse(`entry ${i + 1} is larger than ${MAX_ENTRY_BYTES / 1024 / 1024} MiB`);
      const result = recipeEntrySchema.safeParse(item);
      if (!result.success) {
        const issue = result.error.issues[0];
        throw refuse(`entry ${i + 1} is invalid: ${issue?.path.join('.') || 'entry'}: ${issue?.message}`);
      }
      if (options.onlyPackage !== undefined && result.data.package !== options.onlyPackage) {
        throw refuse(
          `entry ${i + 1} is for package '${result.data.package}', not '${options.onlyPackage}'; refusing the bundle`,
        );
      }
      return result.data;
    });
    for (const entry of entries) await this.put(entry);
    return entries;
  }

  private async packages(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((p) => PACKAGE_NAME.test(p)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  private async filesOf(pkg: string): Promise<string[]> {
    try {
      return (await readdir(join(this.dir, pkg)))
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(this.dir, pkg, f));
    } catch {
      return [];
    }
  }
}

function parseEntry(text: string, file: string): RecipeEntry {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RecipeCacheError('corrupt-entry', `recipe ${file} is not JSON: ${(error as Error).message}`);
  }
  const result = recipeEntrySchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new RecipeCacheError(
      'corrupt-entry',
      `recipe ${file} is invalid: ${issue?.path.join('.')}: ${issue?.message}`,
    );
  }
  return result.data;
}
