import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChrootSandbox } from '../chroot/ChrootSandbox.ts';
import { INSTANCE_RECORD } from '../chroot/InstanceRecord.ts';
import { sandboxPaths } from '../sandboxPaths.ts';
import { collectUserlandEvidence, MAX_EVIDENCE_LOG_BYTES } from './collectUserlandEvidence.ts';
import { EVIDENCE_RECORD } from './evidenceLayer.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** An instance of an evidence layer whose log `cat` streams `bytes` bytes of (the build's) text. */
function instanceWithLog(bytes: number): { box: ChrootSandbox; home: string; kept: () => number } {
  const root = mkdtempSync(join(tmpdir(), 'rvport-evidence-'));
  dirs.push(root);
  const home = join(root, 'home');
  const workspace = join(root, 'instance', 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(
    join(root, 'instance', INSTANCE_RECORD),
    JSON.stringify({ id: 'i', mode: 'native-userland', lowerKeys: ['evidence-t'] }),
  );
  const image = sandboxPaths(home).image('evidence-t');
  mkdirSync(image, { recursive: true });
  writeFileSync(
    join(image, EVIDENCE_RECORD),
    JSON.stringify({ key: 'evidence-t', nativeKey: 'n', samplePerMille: 0, recorded: 1 }),
  );
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  let streamed = 0;
  const box = {
    workspace,
    run: async (_argv: string[], options: { onStdout: (c: Buffer) => void }) => {
      for (let sent = 0; sent < bytes; sent += chunk.length) {
        options.onStdout(chunk);
        streamed += chunk.length;
      }
      return { exitCode: 0, stdout: '', stderr: '', truncated: false, timedOut: false, aborted: false };
    },
  } as unknown as ChrootSandbox;
  return { box, home, kept: () => streamed };
}

describe('collectUserlandEvidence', () => {
  it('refuses an invocation log past its bound as evidence, without keeping it', async () => {
    const over = MAX_EVIDENCE_LOG_BYTES + 8 * 1024 * 1024;
    const { box, home, kept } = instanceWithLog(over);
    const evidence = await collectUserlandEvidence(box, { home });
    expect(kept()).toBe(over);
    expect(evidence.accepted).toBe(false);
    expect(evidence.reason).toMatch(
      /^the invocation log is larger than 128 MiB \(\d+ bytes\): it is no evidence$/,
    );
  });

  it('reads a log within the bound (not the recorder’s lines: refused for that reason)', async () => {
    const { box, home } = instanceWithLog(1024 * 1024);
    const evidence = await collectUserlandEvidence(box, { home });
    expect(evidence.accepted).toBe(false);
    expect(evidence.reason).not.toMatch(/larger than/);
  });
});
