import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContentsIndex, ensureContentsIndex } from '../../src/analysis/dependencies/ContentsIndex.ts';
import { resolveDependencies } from '../../src/analysis/dependencies/resolveDependencies.ts';
import { debianMirror } from '../../src/debian/debianMirror.ts';

// The real trixie riscv64 (+ all) Contents index, downloaded once into a cache shared by runs.
const home = resolve(process.env.RVPORT_TEST_CACHE ?? join(homedir(), '.cache', 'rvport', 'test-home'));

describe("Debian's Contents index (network, once per machine)", () => {
  it('resolves pkg-config modules, headers, libraries and programs to riscv64 packages', {
    timeout: 600_000,
  }, async () => {
    const mirror = debianMirror();
    expect(mirror, "this machine's apt sources name a Debian mirror").toBeTruthy();
    const file = await ensureContentsIndex({ home, suite: 'trixie', mirror: mirror as string });
    const before = statSync(file).mtimeMs;
    expect(
      await ensureContentsIndex({ home, suite: 'trixie', mirror: 'http://unreachable.invalid/debian' }),
    ).toBe(file);
    expect(statSync(file).mtimeMs).toBe(before); // cached: no second download

    const dep = (kind: 'header' | 'pkg-config' | 'library' | 'program', name: string) => ({
      kind,
      name,
      file: 'x',
      line: 1,
      required: true,
    });
    const resolved = resolveDependencies(
      [
        dep('header', 'zlib.h'),
        dep('pkg-config', 'yaml-0.1'),
        dep('pkg-config', 'eigen3'), // arch:all, only in Contents-all
        dep('library', 'apr-1'),
        dep('program', 'apu-1-config'),
        dep('header', 'no/such/header-rvport.h'),
      ],
      await ContentsIndex.load(file),
    );
    expect(Object.fromEntries(resolved.map((d) => [d.name, d.debianPackages[0] ?? null]))).toEqual({
      'zlib.h': 'zlib1g-dev',
      'yaml-0.1': 'libyaml-dev',
      eigen3: 'libeigen3-dev',
      'apr-1': 'libapr1-dev',
      'apu-1-config': 'libaprutil1-dev',
      'no/such/header-rvport.h': null,
    });
  });
});
