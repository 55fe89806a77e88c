import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { guardDiffInTree } from '../../llm/index.ts';
import { runProcess } from '../../process/runProcess.ts';

export interface SourcePatch {
  /** The file name in patches/ (`0001-short-name.patch`). */
  name: string;
  /** A git diff against the source tree, paths relative to its root (`a/…`, `b/…`). */
  diff: string;
}

export class PatchError extends Error {
  override readonly name = 'PatchError';
}

const GIT_IDENTITY = [
  '-c',
  'user.name=rvport',
  '-c',
  'user.email=rvport@localhost',
  '-c',
  'core.autocrlf=false',
];

async function git(cwd: string, args: readonly string[], stdin?: string) {
  return runProcess({
    command: ['git', ...GIT_IDENTITY, ...args],
    cwd,
    ...(stdin !== undefined ? { input: stdin } : {}),
    env: { GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
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
    const applied = await git(tree, ['apply', '--whitespace=nowarn', '-'], verdict.diff);
    if (applied.exitCode !== 0)
      throw new PatchError(`patch ${patch.name} does not apply: ${applied.stderr.trim().split('\n')[0]}`);
  }
}

/**
 * Turns a proposed diff (from the LLM fixer: often with loose hunk counts or without `a/`/`b/`
 * prefixes) into a canonical git diff against the source with the earlier patches applied, or
 * says why it cannot be applied. Works on a throwaway copy; the source is never touched.
 */
export async function canonicalPatch(
  sourceDir: string,
  earlier: readonly SourcePatch[],
  proposed: string,
  scratchParent: string,
): Promise<{ diff: string; files: string[] } | { error: string }> {
  const scratch = await mkdtemp(join(scratchParent, 'rvport-patch-'));
  try {
    const copy = await runProcess({
      command: ['cp', '-a', '--reflink=auto', '--', `${sourceDir}/.`, scratch],
    });
    if (copy.exitCode !== 0) return { error: `cannot copy the source: ${copy.stderr.trim()}` };
    await rm(join(scratch, '.git'), { recursive: true, force: true });
    for (const args of [
      ['init', '-q'],
      ['add', '-A'],
      ['commit', '-q', '--no-verify', '-m', 'source'],
    ]) {
      const r = await git(scratch, args);
      if (r.exitCode !== 0) return { error: `git ${args[0]} failed: ${r.stderr.trim()}` };
    }
    try {
      await applyPatches(scratch, earlier);
    } catch (error) {
      return { error: (error as Error).message };
    }
    const baseline = await git(scratch, ['add', '-A']);
    const commit = await git(scratch, [
      'commit',
      '-q',
      '--no-verify',
      '--allow-empty',
      '-m',
      'earlier patches',
    ]);
    if (baseline.exitCode !== 0 || commit.exitCode !== 0)
      return { error: 'cannot record the earlier patches' };

    const text = proposed.endsWith('\n') ? proposed : `${proposed}\n`;
    let lastError = '';
    // Prefixed paths first; hunks without context lines (which git refuses by default) last.
    const ways = [['-p1'], ['-p0'], ['-p1', '--unidiff-zero'], ['-p0', '--unidiff-zero']];
    for (const way of ways) {
      const applied = await git(scratch, ['apply', '--recount', '--whitespace=nowarn', ...way, '-'], text);
      if (applied.exitCode === 0) {
        await git(scratch, ['add', '-A']);
        const diff = await git(scratch, ['diff', '--cached', '--no-color', '--no-ext-diff', 'HEAD']);
        const names = await git(scratch, ['diff', '--cached', '--name-only', 'HEAD']);
        if (!diff.stdout.trim()) return { error: 'the patch changes nothing' };
        return { diff: diff.stdout, files: names.stdout.split('\n').filter(Boolean) };
      }
      if (way[0] === '-p1' && way.length === 1)
        lastError = applied.stderr.trim().split('\n').slice(0, 3).join('; ');
    }
    return { error: `the patch does not apply: ${lastError}` };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** `0003-rename-strnlen.patch` from the patch's place in the list and a summary. */
export function patchFileName(index: number, summary: string): string {
  const slug =
    summary
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48)
      .replace(/-+$/g, '') || 'fix';
  return `${String(index + 1).padStart(4, '0')}-${slug}.patch`;
}
