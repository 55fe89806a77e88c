import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeTree } from '../../analysis/analyzeTree.ts';
import { ContentsIndex } from '../../analysis/dependencies/ContentsIndex.ts';
import type { FetchedDependencies } from '../../sources/deps/FetchedDependency.ts';
import { portState } from '../testing/portStateFixture.ts';
import { deterministicAnalysis } from './deterministicAnalysis.ts';
import { planFromAnalysis } from './planFromAnalysis.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function planned(files: Record<string, string>, contents: string, fetched: FetchedDependencies) {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-fetched-plan-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const { findings: _f, ...scripted } = analyzeTree(dir, {
    name: 'demo',
    contents: ContentsIndex.fromText(contents),
  });
  const state = { ...portState({ scripted }), fetchedDependencies: fetched };
  return planFromAnalysis({ ...state, packageAnalysis: deterministicAnalysis(state) }, 'default');
}

describe('plans of ports whose dependencies were fetched', () => {
  it("builds a Go module in module mode from the copied store, not from Debian's Go libraries", () => {
    const plan = planned(
      {
        'go.mod': 'module example.com/demo\n\ngo 1.22\n\nrequire github.com/google/uuid v1.6.0\n',
        'main.go': 'package main\nfunc main() {}\n',
      },
      'usr/share/gocode/src/github.com/google/uuid/\tgolang-github-google-uuid-dev\n',
      { kind: 'go', from: 'http://127.0.0.1:1', paths: [], items: [] },
    );
    expect(plan?.packages).toEqual(['golang-go']);
    expect(plan?.phases.map((p) => p.name)).toEqual(['build', 'test']);
    const build = plan?.phases[0]?.commands ?? [];
    expect(build.every((c) => c.includes('GOPROXY=file:///build/deps/cache/download'))).toBe(true);
    expect(build.every((c) => c.includes('-mod=readonly') && !c.includes('GO111MODULE=off'))).toBe(true);
  });

  it('replaces crates.io by the copied directory registry, keeps the lock and installs no librust package', () => {
    const plan = planned(
      {
        'Cargo.toml': '[package]\nname = "demo"\nversion = "0.1.0"\n\n[dependencies]\nfnv = "1"\n',
        'Cargo.lock':
          '[[package]]\nname = "fnv"\nversion = "1.0.6"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n',
      },
      'usr/share/cargo/registry/fnv-1.0.7/Cargo.toml\tlibrust-fnv-dev\n',
      { kind: 'cargo', from: 'http://127.0.0.1:1/index/', paths: [], items: [] },
    );
    expect(plan?.packages).toEqual(['cargo']);
    const prepare = plan?.phases[0]?.commands.join('\n') ?? '';
    expect(prepare).toMatch(/directory = "\/build\/deps\/crates"/);
    expect(prepare).not.toMatch(/usr\/share\/cargo\/registry|Cargo\.lock/);
    expect(plan?.phases[1]?.commands).toEqual(['cargo build --release --offline']);
  });
});
