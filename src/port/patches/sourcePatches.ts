import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { RvportError, type RvportErrorOptions } from '../../errors/index.ts';
import { guardDiffInTree } from '../../llm/index.ts';
import { patchFileName, type SourcePatch } from '../../plan/index.ts';
import { runProcess } from '../../process/runProcess.ts';
import { commitTree, gitEnvironment, SAFE_GIT_CONFIG } from '../../sources/index.ts';

/** A patch that is refused or does not apply (one code: `patch-failed`). */
export class PatchError extends RvportError {
  override readonly name = 'PatchError';
  constructor(message: string, options?: RvportErrorOptions) {
    super('patch-failed', message, options);
  }
}

/**
 * Host git for patches, with the sources module's safe settings and fixed environment. `gitDir`
 * is always explicit: `/dev/null` (no repository: `git apply` works as a plain patch tool) or a
 * scratch repository of rvport's own, so a `.git` in the tree, shipped by a tarball or changed
 * by a build, is never read.
 */
async function git(
  gitDir: string,
  args: readonly string[],
  options: { cwd?: string; input?: string; index?: string } = {},
) {
  return runProcess({
    command: ['git', ...SAFE_GIT_CONFIG, `--git-dir=${gitDir}`, ...args],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.input !== undefined ? { input: options.input } : {}),
    env: gitEnvironment(options.index ? { GIT_INDEX_FILE: options.index } : {}),
    clearEnv: true,
  });
}

/**
 * Applies the port's patches, in order, to a tree (the fresh copy a build starts from). A patch
 * that no longer applies is an error that names it: the recipe would not be reproducible.
 */
export async function applyPatches(tree: string, patches: readonly SourcePatch[]): Promise<void> {
  for (const patch of patches) {
    // Patches come back from the recipe cache, imported bundles and resumed state: checked again.
    const verdict = await guardDiffInTree(patch.diff, tree);
    if (!verdict.allowed) throw new PatchError(`patch ${patch.name} is refused: ${verdict.reason}`);
    const applied = await git('/dev/null', ['apply', '--whitespace=nowarn', '-'], {
      cwd: tree,
      input: verdict.diff,
    });
    if (applied.exitCode !== 0)
      throw new PatchError(`patch ${patch.name} does not apply: ${applied.stderr.trim().split('\n')[0]}`);
  }
}

/**
 * Turns a proposed diff (from the LLM fixer: often with loose hunk counts or without `a/`/`b/`
 * prefixes) into a canonical git diff against the source with the earlier patches applied, or
 * says why it cannot be applied. The source's files are recorded in a scratch repository and
 * the patches applied to its index only (`--cached`): the source is never touched nor copied.
 */
export async function canonicalPatch(
  sourceDir: string,
  earlier: readonly SourcePatch[],
  proposed: string,
  scratchParent: string,
): Promise<{ diff: string; files: string[] } | { error: string }> {
  return withSourceIndex(sourceDir, scratchParent, async (gitDir, index) => {
    for (const patch of earlier) {
      const applied = await git(gitDir, ['apply', '--cached', '--whitespace=nowarn', '-'], {
        index,
        input: patch.diff,
      });
      if (applied.exitCode !== 0)
        return { error: `patch ${patch.name} does not apply: ${applied.stderr.trim().split('\n')[0]}` };
    }
    const base = await writeTree(gitDir, index);
    if (!base) return { error: 'cannot record the earlier patches' };

    const text = proposed.endsWith('\n') ? proposed : `${proposed}\n`;
    let lastError = '';
    // Prefixed paths first; hunks without context lines (which git refuses by default) last.
    const ways = [['-p1'], ['-p0'], ['-p1', '--unidiff-zero'], ['-p0', '--unidiff-zero']];
    for (const way of ways) {
      const applied = await git(
        gitDir,
        ['apply', '--cached', '--recount', '--whitespace=nowarn', ...way, '-'],
        { index, input: text },
      );
      if (applied.exitCode === 0) {
        const after = await writeTree(gitDir, index);
        if (!after) return { error: 'cannot record the patched source' };
        return diffOfTrees(gitDir, base, after);
      }
      if (way[0] === '-p1' && way.length === 1)
        lastError = applied.stderr.trim().split('\n').slice(0, 3).join('; ');
    }
    return { error: `the patch does not apply: ${lastError}` };
  });
}

/** A patch of a series (Debian's quilt patches), applied with `-pSTRIP`. */
export interface SeriesPatch {
  name: string;
  diff: string;
  strip: number;
}

/**
 * Canonical git diffs of a series of patches applied in order to the source, each against the
 * source with the earlier accepted ones applied. A patch the diff guard refuses, or that does
 * not apply cleanly, or whose result cannot be recorded, is skipped with the reason and the series goes
 * on without it. As for canonicalPatch, only the index of a scratch repository changes, never
 * the source.
 */
export async function canonicalSeries(
  sourceDir: string,
  series: readonly SeriesPatch[],
  scratchParent: string,
): Promise<{
  accepted: { name: string; diff: string; files: string[] }[];
  skipped: { name: string; reason: string }[];
}> {
  const accepted: { name: string; diff: string; files: string[] }[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const recorded = await withSourceIndex<{ recorded: true }>(
    sourceDir,
    scratchParent,
    async (gitDir, index) => {
      let base = await writeTree(gitDir, index);
      if (!base) return { error: 'cannot record the source' };
      for (const patch of series) {
        // Counted hunks, as quilt and patch(1) read them: a series often has one file's `--- a/x`
        // straight after the last hunk of the one before, which a recount would take as a removal.
        const verdict = await guardDiffInTree(patch.diff, sourceDir);
        if (!verdict.allowed) {
          skipped.push({ name: patch.name, reason: `refused: ${verdict.reason}` });
          continue;
        }
        const applied = await git(
          gitDir,
          ['apply', '--cached', '--whitespace=nowarn', `-p${patch.strip}`, '-'],
          { index, input: verdict.diff },
        );
        if (applied.exitCode !== 0) {
          const why = applied.stderr.trim().split('\n').slice(0, 2).join('; ');
          skipped.push({ name: patch.name, reason: `does not apply: ${why}` });
          continue;
        }
        const after = await writeTree(gitDir, index);
        if (!after) return { error: 'cannot record the patched source' };
        const diff = await diffOfTrees(gitDir, base, after);
        if (!('error' in diff)) {
          accepted.push({ name: patch.name, ...diff });
          base = after;
          continue;
        }
        skipped.push({ name: patch.name, reason: diff.error });
        const reset = await git(gitDir, ['read-tree', base], { index });
        if (reset.exitCode !== 0) return { error: 'cannot undo a skipped patch' };
      }
      return { recorded: true as const };
    },
  );
  const failure = 'error' in recorded ? recorded.error : null;
  if (failure !== null)
    return { accepted: [], skipped: series.map((p) => ({ name: p.name, reason: failure })) };
  return { accepted, skipped };
}

/**
 * Runs `use` with the source's files recorded in a scratch repository and read into a scratch
 * index (the source is never touched nor copied); the scratch goes afterwards.
 */
async function withSourceIndex<T extends object>(
  sourceDir: string,
  scratchParent: string,
  use: (gitDir: string, index: string) => Promise<T | { error: string }>,
): Promise<T | { error: string }> {
  const scratch = await mkdtemp(join(scratchParent, 'rvport-patch-'));
  const gitDir = join(scratch, 'git');
  const index = join(scratch, 'index');
  try {
    try {
      await commitTree(sourceDir, gitDir, 'source');
    } catch (error) {
      return { error: `cannot record the source: ${(error as Error).message}` };
    }
    const read = await git(gitDir, ['read-tree', 'HEAD'], { index });
    if (read.exitCode !== 0) return { error: `cannot record the source: ${read.stderr.trim()}` };
    return await use(gitDir, index);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function writeTree(gitDir: string, index: string): Promise<string | null> {
  const written = await git(gitDir, ['write-tree'], { index });
  return written.exitCode === 0 ? written.stdout.trim() : null;
}

/** The git diff from one tree to another, and the files it changes. */
async function diffOfTrees(
  gitDir: string,
  from: string,
  to: string,
): Promise<{ diff: string; files: string[] } | { error: string }> {
  const diff = await git(gitDir, ['diff', '--no-color', '--no-ext-diff', '--no-textconv', from, to]);
  const names = await git(gitDir, ['diff', '--name-only', from, to]);
  if (diff.exitCode !== 0) return { error: `cannot diff the patched source: ${diff.stderr.trim()}` };
  if (!diff.stdout.trim()) return { error: 'the patch changes nothing' };
  return { diff: diff.stdout, files: names.stdout.split('\n').filter(Boolean) };
}

export { patchFileName, type SourcePatch };
