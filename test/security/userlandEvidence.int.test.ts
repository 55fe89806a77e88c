import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChrootSandbox } from '../../src/sandbox/chroot/ChrootSandbox.ts';
import { createSandbox } from '../../src/sandbox/createSandbox.ts';
import {
  collectUserlandEvidence,
  instanceEvidenceLayer,
} from '../../src/sandbox/proof/collectUserlandEvidence.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from '../sandbox/provisionedImages.ts';

// The evidence of a native-userland build is written inside the sandbox, by the build's own
// processes' neighbours: a hostile build may scribble on the log or plant links for the census.
let box: ChrootSandbox;
let canaryDir: string;

beforeAll(async () => {
  await provisionedImages();
  box = await createSandbox({ mode: 'native-userland', evidence: { samplePerMille: 20 } });
  canaryDir = mkdtempSync(join(tmpdir(), 'rvport-canary-'));
  writeFileSync(join(canaryDir, 'canary'), 'echo $HOSTTYPE\n');
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  await box?.destroy();
  rmSync(canaryDir, { recursive: true, force: true });
});

describe('per-build evidence against a hostile build', () => {
  it('stands at every swapped program and leaves the autoconf scripts on the x86_64 perl', async () => {
    const result = await box.run(
      [
        '/native/usr/bin/sh',
        '-c',
        'stat -c %h /usr/bin/sed; head -n 1 /usr/bin/autoconf; cmp /usr/bin/sed /usr/bin/grep && echo one; readlink /usr/bin/rm',
      ],
      { timeoutMs: 60_000 },
    );
    const [links, shebang, same, rm] = result.stdout.trim().split('\n');
    // one hard link per swapped program the rules name, and the recorder's own
    const layer = await instanceEvidenceLayer(box);
    expect(layer?.recorded).toBeGreaterThan(50);
    expect(Number(links)).toBe((layer?.recorded ?? 0) + 1);
    expect(shebang).toBe('#! /native/usr/bin/perl');
    expect(same).toBe('one');
    // a program without a rule is never checked, so it runs without the recorder's extra exec
    expect(rm).toBe('/native/usr/bin/rm');
  }, 300_000);

  it('refuses a log with lines the recorder did not write, and follows no planted link', async () => {
    const canary = join(canaryDir, 'canary');
    const result = await box.run(
      [
        'sh',
        '-c',
        [
          'mkdir -p /build/src && cd /build/src',
          'echo hello | sed s/h/H/ > out.txt',
          // a "proof" of its own, appended to the log, and links out of the tree for the census
          `printf 'V2\\tmachine\\tsame\\t0\\t1\\tprintf\\t/\\nall good\\n' >> /var/lib/rvport-evidence/calls.log`,
          `ln -s ${canary} host-link.sh`,
          'ln -s /etc/passwd passwd-link',
        ].join(' && '),
      ],
      { timeoutMs: 120_000 },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const evidence = await collectUserlandEvidence(box);
    expect(evidence.accepted).toBe(false);
    expect(evidence.malformed).toBe(1);
    expect(evidence.reason).toBe("1 lines of the invocation log are not the recorder's");
    // the planted link to a host file that reads HOSTTYPE is not read: the census saw no hit
    expect(evidence.census).toEqual([]);
    expect(readFileSync(canary, 'utf8')).toBe('echo $HOSTTYPE\n');
  }, 300_000);

  it('refuses a build that removed the log', async () => {
    // then a recorded call, which begins a log of its own
    const result = await box.run(
      ['sh', '-c', 'rm -f /var/lib/rvport-evidence/calls.log && echo x | sed s/x/y/'],
      {
        timeoutMs: 60_000,
      },
    );
    expect(result.exitCode).toBe(0);
    const evidence = await collectUserlandEvidence(box);
    expect(evidence.accepted).toBe(false);
    // the log starts in the evidence layer; the one the next calls begin afresh lacks that start
    expect(evidence.reason).toBe('the invocation log was removed or replaced during the build');
  }, 300_000);
});
