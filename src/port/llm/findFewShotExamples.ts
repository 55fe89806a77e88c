import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { classifyError } from '../steps/classifyError.ts';
import { type FewShotExample, FewShotExampleSchema, fewShotDir } from './fewShotExample.ts';

/** Examples returned when the caller does not say. */
export const DEFAULT_FEW_SHOT_LIMIT = 3;
/** Example files read at most (a shared RVPORT_HOME may hold many). */
const MAX_EXAMPLE_FILES = 2_000;
/** An example whose errors had the query error's category gains this much on top of the shared words. */
const CATEGORY_BONUS = 2;
/** Words that say nothing about which error it is. */
const STOPWORDS = new Set(
  'the and for with from not was this that are but has have had error errors fatal warning make made file line no cannot could failed unable found'.split(
    ' ',
  ),
);

export interface FewShotQuery {
  imageId: string;
  buildSystem: string;
  /** The error the caller is planning or fixing for. */
  errorText?: string;
  limit?: number;
}

/**
 * The saved examples most relevant to a port, best first: the same sandbox image first, then the
 * same build system, then the most error words shared with the query (plus a bonus when the
 * example met the query error's category); ties by package name. Examples that share neither the
 * build system nor any error word are left out. Unreadable or malformed files are skipped.
 */
export async function findFewShotExamples(home: string, query: FewShotQuery): Promise<FewShotExample[]> {
  const examples = await readExamples(fewShotDir(home));
  const wanted = query.errorText ? errorTokens(query.errorText) : new Set<string>();
  const category = query.errorText ? classifyError(query.errorText).category : null;
  return examples
    .map((example) => {
      const shared = [...exampleTokens(example)].filter((t) => wanted.has(t)).length;
      const bonus = category && example.errors.some((e) => e.category === category) ? CATEGORY_BONUS : 0;
      return {
        example,
        sameImage: example.imageId === query.imageId ? 1 : 0,
        sameSystem: example.buildSystem === query.buildSystem ? 1 : 0,
        score: shared > 0 ? shared + bonus : 0,
      };
    })
    .filter((r) => r.sameSystem === 1 || r.score > 0)
    .sort(
      (a, b) =>
        b.sameImage - a.sameImage ||
        b.sameSystem - a.sameSystem ||
        b.score - a.score ||
        a.example.package.localeCompare(b.example.package),
    )
    .slice(0, query.limit ?? DEFAULT_FEW_SHOT_LIMIT)
    .map((r) => r.example);
}

/** Lower-case words of three or more characters, numbers and noise words left out. */
export function errorTokens(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^a-z0-9_+.-]+/)) {
    const word = raw.replace(/^[.-]+|[.-]+$/g, '');
    if (word.length < 3 || STOPWORDS.has(word) || /^[\d.]+$/.test(word)) continue;
    tokens.add(word);
  }
  return tokens;
}

function exampleTokens(example: FewShotExample): Set<string> {
  return errorTokens(
    example.errors.map((e) => `${e.category} ${e.signature} ${e.evidence ?? ''}`).join('\n'),
  );
}

async function readExamples(root: string): Promise<FewShotExample[]> {
  const systems = await readdir(root, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const system of systems
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()) {
    const names = await readdir(join(root, system)).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.json')).sort()) files.push(join(root, system, name));
  }
  const examples: FewShotExample[] = [];
  for (const file of files.slice(0, MAX_EXAMPLE_FILES)) {
    try {
      const parsed = FewShotExampleSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (parsed.success) examples.push(parsed.data);
    } catch {
      // A half-copied or hand-edited file is not worth failing a port for.
    }
  }
  return examples;
}
