import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proveNativeUserland } from '../../src/port/run/proveNativeUserland.ts';
import { type ChrootSandbox, createSandbox } from '../../src/sandbox/index.ts';
import { formatDifference } from '../../src/sandbox/proof/compareBuildTrees.ts';
import { ensureCorpus } from '../helpers/corpus.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

let box: ChrootSandbox;
const gitTree = (dir: string) =>
  execFileSync('git', ['rev-parse', 'HEAD^{tree}'], { cwd: dir, encoding: 'utf8' }).trim();

beforeAll(async () => {
  await provisionedImages();
  box = await createSandbox({ mode: 'native-userland' });
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  await box?.destroy();
});

const PROBE = `
for p in sh dash bash make sed grep awk m4 expr find xargs ls cat cmp; do printf '%s %s\\n' $p "$(readlink -f "$(command -v $p)")"; done
for p in uname arch python3 cmake meson perl; do printf 'keep %s %s\\n' $p "$(readlink -f "$(command -v $p)")"; done
printf 'uname %s %s\\n' "$(uname -m)" "$(arch)"
printf 'hosttype %s %s\\n' "$(bash -c 'echo $HOSTTYPE $MACHTYPE')" "$(make -p -f /dev/null 2>/dev/null | sed -n 's/^MAKE_HOST :*= //p')"
printf 'guess %s\\n' "$(sh /usr/share/misc/config.guess)"
printf 'python %s\\n' "$(python3 -c 'import platform; print(platform.machine())')"
head -n 1 /usr/bin/autoconf
`;

describe('native-userland mode', () => {
  it('runs the shells, make and the text tools natively, and everything that reads the machine stays riscv64', async () => {
    const result = await box.run(['sh', '-c', PROBE], { timeoutMs: 120_000 });
    expect(result.stderr).toBe('');
    const lines = result.stdout.trim().split('\n');
    const swapped = lines.filter((l) => !/^(keep|uname|hosttype|guess|python|#!)/.test(l));
    expect(swapped).toHaveLength(14);
    for (const line of swapped) expect(line).toMatch(/ \/native\/usr\/bin\/[\w.-]+$/);
    const kept = lines.filter((l) => l.startsWith('keep '));
    expect(kept).toHaveLength(6);
    for (const line of kept) expect(line).not.toContain('/native/');
    expect(lines).toContain('uname riscv64 riscv64');
    // compiled into the x86_64 bash and make, accepted on evidence (provision/userlandSwap.ts)
    expect(lines).toContain('hosttype x86_64 x86_64-pc-linux-gnu x86_64-pc-linux-gnu');
    expect(lines).toContain('guess riscv64-unknown-linux-gnu');
    expect(lines).toContain('python riscv64');
    expect(lines).toContain('#! /native/usr/bin/perl');
  }, 180_000);

  // The proof, run in CI on a few packages: an autotools one and a plain-Make one that are
  // identical, and a meson one that the comparison must find different.
  it.each([
    ['cmatrix', 50],
    ['sl', 5],
  ] as const)(
    'builds %s exactly as accelerated mode does',
    async (name, atLeastFiles) => {
      const corpus = await ensureCorpus([name]);
      const out = await mkdtemp(join(tmpdir(), 'rvport-prove-'));
      const run = await proveNativeUserland(join(corpus, name), { out });
      expect(run.runs.map((r) => r.result)).toEqual(['verified', 'verified']);
      expect(run.comparison?.files).toBeGreaterThan(atLeastFiles);
      expect(run.comparison?.differences.map(formatDifference)).toEqual([]);
      expect(run.proof).toMatchObject({ identical: true, result: 'verified' });
      // the proof is for this source: the git tree of the corpus checkout
      expect(run.proof?.sourceTree).toBe(gitTree(join(corpus, name)));
    },
    1_200_000,
  );

  it('finds the run-dependent state meson writes into its build tree (libinih differs)', async () => {
    const corpus = await ensureCorpus(['libinih']);
    const out = await mkdtemp(join(tmpdir(), 'rvport-prove-'));
    const run = await proveNativeUserland(join(corpus, 'libinih'), { out });
    expect(run.runs.map((r) => r.result)).toEqual(['verified', 'verified']);
    expect(run.proof?.identical).toBe(false);
    expect(run.proof?.differences.join('\n')).toMatch(/meson-(info|private|logs)/);
  }, 1_200_000);
});
