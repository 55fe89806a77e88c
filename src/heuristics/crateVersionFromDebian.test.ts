import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runProcess } from '../process/runProcess.ts';
import { crateVersionFromDebian, highestCandidate } from './crateVersionFromDebian.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const CARGO = { phase: 'build', command: 'cargo build --release --offline' };

/** Runs a prepare command with /bin/sh and RVPORT_SRC set to a scratch tree, as the sandbox does. */
async function runPrepare(command: string, files: Record<string, string>): Promise<Record<string, string>> {
  const src = mkdtempSync(join(tmpdir(), 'rvport-crate-version-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(src, path, '..'), { recursive: true });
      writeFileSync(join(src, path), text);
    }
    const r = await runProcess({
      command: ['/bin/sh', '-c', command],
      env: { PATH: '/usr/bin:/bin', RVPORT_SRC: src },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    return Object.fromEntries(Object.keys(files).map((p) => [p, readFileSync(join(src, p), 'utf8')]));
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
}

describe('crate-version-from-debian', () => {
  it("asks for the version Debian's registry has, in each form a manifest writes it", async () => {
    const t = heuristicContext(fixture('cargo-version-not-in-registry'), { failure: CARGO });
    const match = await crateVersionFromDebian.match(t.ctx);
    expect(match).toEqual({
      key: 'hex-literal@0.4.1',
      reason: `hex-literal "^0.3" is not in Debian's crate registry, which has 0.4.1`,
    });
    const outcome = await crateVersionFromDebian.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.phases.find((p) => p.name === 'prepare')?.commands.at(-1)).toBe(outcome.commands[0]);
    const manifest = [
      '[package]',
      'name = "aes"',
      'version = "0.8.4"',
      '',
      '[dependencies.cipher]',
      'version = "0.4.2"',
      '',
      '[dev-dependencies.hex-literal]',
      'version = "0.3"',
      '',
      '[dev-dependencies.hex]',
      'version = "0.3"',
      '',
      '[target."cfg(unix)".dev-dependencies]',
      'hex_literal = { version = "0.3", default-features = false }',
      'hex-literal-impl = "0.3"',
      '',
      '[build-dependencies]',
      'hex-literal = "0.3.1"',
    ].join('\n');
    const after = (await runPrepare(outcome.commands[0] as string, { 'Cargo.toml': manifest }))['Cargo.toml'];
    expect(after).toContain('[dev-dependencies.hex-literal]\nversion = "0.4.1"');
    // another crate of another name keeps its requirement
    expect(after).toContain('[dev-dependencies.hex]\nversion = "0.3"');
    expect(after).toContain('[dependencies.cipher]\nversion = "0.4.2"');
    expect(after).toContain('hex_literal = { version = "0.4.1", default-features = false }');
    expect(after).toContain('hex-literal-impl = "0.3"');
    expect(after).toContain('hex-literal = "0.4.1"');
  });

  it("edits a workspace member's manifest, never a registry crate's", async () => {
    const member = fixture('cargo-version-not-in-registry').replace(
      '(/build/src)',
      '(/build/src/crates/core)',
    );
    const t = heuristicContext(member, { failure: CARGO });
    const match = await crateVersionFromDebian.match(t.ctx);
    const outcome = await crateVersionFromDebian.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.commands[0]).toMatch(/"\$RVPORT_SRC"\/crates\/core\/Cargo\.toml$/);
    const files = await runPrepare(outcome.commands[0] as string, {
      'crates/core/Cargo.toml': '[dev-dependencies]\nhex-literal = "0.3"\n',
    });
    expect(files['crates/core/Cargo.toml']).toBe('[dev-dependencies]\nhex-literal = "0.4.1"\n');

    for (const elsewhere of [
      '(/usr/share/cargo/registry/aes-0.8.4)',
      '(/build/src/../etc)',
      '(/build/srcx)',
    ]) {
      const other = heuristicContext(
        fixture('cargo-version-not-in-registry').replace('(/build/src)', elsewhere),
        {
          failure: CARGO,
        },
      );
      expect(await crateVersionFromDebian.match(other.ctx), elsewhere).toBeNull();
    }
    const online = heuristicContext(
      fixture('cargo-version-not-in-registry').replace('directory source', 'registry'),
      { failure: CARGO },
    );
    expect(await crateVersionFromDebian.match(online.ctx)).toBeNull();
  });

  it('takes the highest candidate version', () => {
    expect(highestCandidate('0.4.1, 0.10.0, 0.9.3')).toBe('0.10.0');
    expect(highestCandidate('1.0.0-rc.1')).toBe('1.0.0-rc.1');
    expect(highestCandidate('; rm -rf /')).toBeNull();
  });
});
