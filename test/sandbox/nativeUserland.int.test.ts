import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proveNativeUserland } from '../../src/port/proveNativeUserland.ts';
import { type ChrootSandbox, createSandbox } from '../../src/sandbox/index.ts';
import { formatDifference } from '../../src/sandbox/proof/compareBuildTrees.ts';
import { ensureCorpus } from '../helpers/corpus.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

let box: ChrootSandbox;

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

  it('builds small autotools packages exactly as accelerated mode does (the proof, run in CI)', async () => {
    const corpus = await ensureCorpus(['cmatrix']);
    const out = await mkdtemp(join(tmpdir(), 'rvport-prove-'));
    const run = await proveNativeUserland(join(corpus, 'cmatrix'), { out });
    expect(run.runs.map((r) => r.result)).toEqual(['verified', 'verified']);
    expect(run.comparison?.files).toBeGreaterThan(50);
    expect(run.comparison?.differences.map(formatDifference)).toEqual([]);
    expect(run.proof?.identical).toBe(true);
  }, 1_200_000);
});
