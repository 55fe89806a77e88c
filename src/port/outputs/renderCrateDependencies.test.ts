import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeTree } from '../../analysis/analyzeTree.ts';
import { ContentsIndex } from '../../analysis/dependencies/ContentsIndex.ts';
import { deterministicAnalysis } from '../steps/deterministicAnalysis.ts';
import { planFromAnalysis } from '../steps/planFromAnalysis.ts';
import { portState } from '../testing/portStateFixture.ts';
import { renderCrateDependencies } from './renderCrateDependencies.ts';
import { renderReport } from './renderReport.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const REGISTRY = 'registry+https://github.com/rust-lang/crates.io-index';
const contents = ContentsIndex.fromText(
  [
    'usr/share/cargo/registry/fnv-1.0.7/Cargo.toml\tlibrust-fnv-dev',
    'usr/share/cargo/registry/itoa-1.0.14/Cargo.toml\tlibrust-itoa-dev',
    'usr/share/cargo/registry/proc-macro2-1.0.93/Cargo.toml\tlibrust-proc-macro2-dev',
  ].join('\n'),
);

function portedState(lock: string | null) {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-crates-report-'));
  dirs.push(dir);
  writeFileSync(
    join(dir, 'Cargo.toml'),
    '[package]\nname = "demo"\nversion = "0.1.0"\n\n[dependencies]\nfnv = "1.0"\nitoa = "1"\nmissing = "0.3"\n',
  );
  if (lock) writeFileSync(join(dir, 'Cargo.lock'), lock);
  const { findings: _f, ...scripted } = analyzeTree(dir, { name: 'demo', contents });
  const state = portState({ scripted });
  const withAnalysis = { ...state, packageAnalysis: deterministicAnalysis(state) };
  return { ...withAnalysis, plan: planFromAnalysis(withAnalysis, 'default') };
}

const pin = (name: string, version: string) =>
  `[[package]]\nname = "${name}"\nversion = "${version}"\nsource = "${REGISTRY}"\n\n`;

describe('the Crates section of report.md', () => {
  it('says which path supplied each crate and where Debian differs from the lock', () => {
    const state = portedState(pin('fnv', '1.0.6') + pin('itoa', '1.0.14') + pin('proc-macro2', '1.0.86'));
    const text = renderCrateDependencies(state).join('\n');
    expect(text).toMatch(/directory registry `\/usr\/share\/cargo\/registry`/);
    expect(text).toMatch(
      /`Cargo\.lock` moved aside \(`Cargo\.lock\.upstream`\).*2 of the versions.*fnv 1\.0\.6, proc-macro2 1\.0\.86/,
    );
    expect(text).toContain("| fnv | 1.0 | 1.0.6 (differs) | librust-fnv-dev | 1.0.7 | Debian's registry |");
    expect(text).toContain("| itoa | 1 | 1.0.14 | librust-itoa-dev | 1.0.14 | Debian's registry |");
    expect(text).toContain('| missing | 0.3 |  |  |  | nothing (not packaged) |');
    // a transitive crate the lock pins at another version than Debian's
    expect(text).toContain(
      "| proc-macro2 (lock only) |  | 1.0.86 (differs) | librust-proc-macro2-dev | 1.0.93 | Debian's registry |",
    );
    expect(renderReport(state)).toContain('## Crates');
  });

  it('says the lock is kept when Debian packages every pinned version, and is absent without crates', () => {
    const kept = renderCrateDependencies(portedState(pin('fnv', '1.0.7') + pin('itoa', '1.0.14'))).join('\n');
    expect(kept).toMatch(/`Cargo\.lock` kept/);
    expect(renderCrateDependencies(portState())).toEqual([]);
  });
});
