import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { runProcess } from '../../src/process/runProcess.ts';

const repoRoot = resolve(import.meta.dirname, '..', '..');

/** The public corpus list and its fetch script (../shared/corpus beside the repository). */
export const corpusDir = resolve(process.env.RVPORT_CORPUS_DIR ?? join(repoRoot, '..', 'shared', 'corpus'));
export const corpusList = process.env.RVPORT_CORPUS_LIST ?? join(corpusDir, 'public.txt');
/** Where fetched packages are kept between runs (outside the repository; CI finds them again). */
export const corpusCache = resolve(
  process.env.RVPORT_CORPUS_CACHE ?? join(homedir(), '.cache', 'rvport', 'corpus'),
);

/**
 * Makes sure the named corpus packages are fetched (Debian's upstream tarballs as git trees,
 * with the list's own script) and returns the cache folder.
 */
export async function ensureCorpus(names: readonly string[]): Promise<string> {
  const missing = names.filter((n) => !existsSync(join(corpusCache, n, '.git')));
  if (missing.length > 0) {
    const result = await runProcess({
      command: [join(corpusDir, 'fetch-debian-source'), corpusCache, ...missing],
      timeoutMs: 20 * 60_000,
      env: { SOURCE_DATE_EPOCH: '0' },
    });
    if (result.exitCode !== 0) throw new Error(`fetching the corpus failed:\n${result.stderr.slice(-2000)}`);
  }
  return corpusCache;
}
