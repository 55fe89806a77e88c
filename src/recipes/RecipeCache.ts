import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../fs/writeFileAtomic.ts';
import { type RecipeEntry, recipeEntrySchema } from './RecipeEntry.ts';

export class RecipeCacheError extends Error {
  override name = 'RecipeCacheError';
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

  async get(pkg: string, imageId: string): Promise<RecipeEntry | undefined> {
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

  /** The entry to reuse for a port: same package, same image, same source (and commit when known). */
  async lookup(
    pkg: string,
    imageId: string,
    source: { spec: string; commit?: string },
  ): Promise<RecipeEntry | undefined> {
    const entry = await this.get(pkg, imageId);
    if (!entry || entry.source.spec !== source.spec) return undefined;
    if (source.commit && entry.source.commit && source.commit !== entry.source.commit) return undefined;
    return entry;
  }

  async put(entry: RecipeEntry): Promise<string> {
    const valid = recipeEntrySchema.parse(entry);
    const file = this.file(valid.package, valid.imageId);
    await mkdir(join(this.dir, valid.package), { recursive: true });
    await writeJsonAtomic(file, valid);
    return file;
  }

  /** Every entry, sorted by package; unreadable files are reported, not skipped silently. */
  async list(): Promise<{ entries: RecipeEntry[]; problems: string[] }> {
    const entries: RecipeEntry[] = [];
    const problems: string[] = [];
    let packages: string[];
    try {
      packages = (await readdir(this.dir)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries, problems };
      throw error;
    }
    for (const pkg of packages) {
      let files: string[];
      try {
        files = (await readdir(join(this.dir, pkg))).filter((f) => f.endsWith('.json')).sort();
      } catch {
        continue;
      }
      for (const f of files) {
        const file = join(this.dir, pkg, f);
        try {
          entries.push(parseEntry(await readFile(file, 'utf8'), file));
        } catch (error) {
          problems.push((error as Error).message);
        }
      }
    }
    return { entries, problems };
  }

  /** Removes every entry of a package (or one image's); returns how many were removed. */
  async remove(pkg: string, imageId?: string): Promise<number> {
    const { entries } = await this.list();
    const doomed = entries.filter(
      (e) => e.package === pkg && (imageId === undefined || e.imageId === imageId),
    );
    for (const e of doomed) await rm(this.file(e.package, e.imageId), { force: true });
    return doomed.length;
  }

  /** A bundle of entries as one JSON document, for `rvport cache export`. */
  async exportBundle(pkg?: string): Promise<string> {
    const { entries } = await this.list();
    const chosen = pkg ? entries.filter((e) => e.package === pkg) : entries;
    return `${JSON.stringify({ rvportRecipes: 1, entries: chosen }, null, 2)}\n`;
  }

  /** Adds the entries of a bundle; every entry is validated before any is written. */
  async importBundle(text: string, origin: string): Promise<RecipeEntry[]> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new RecipeCacheError(`${origin} is not JSON: ${(error as Error).message}`);
    }
    const list = (parsed as { entries?: unknown })?.entries;
    if (!Array.isArray(list))
      throw new RecipeCacheError(`${origin} is not an rvport recipe bundle (no "entries" list)`);
    const entries = list.map((item, i) => {
      const result = recipeEntrySchema.safeParse(item);
      if (!result.success)
        throw new RecipeCacheError(
          `${origin}: entry ${i + 1} is invalid: ${result.error.issues[0]?.message}`,
        );
      return result.data;
    });
    for (const entry of entries) await this.put(entry);
    return entries;
  }
}

function parseEntry(text: string, file: string): RecipeEntry {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RecipeCacheError(`recipe ${file} is not JSON: ${(error as Error).message}`);
  }
  const result = recipeEntrySchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new RecipeCacheError(`recipe ${file} is invalid: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return result.data;
}
