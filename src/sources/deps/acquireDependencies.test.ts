import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDependencies } from './acquireDependencies.ts';

const root = mkdtempSync(join(tmpdir(), 'rvport-acquire-deps-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [n, t] of Object.entries(files)) writeFileSync(join(dir, n), t);
  return dir;
}

// nothing listens on port 9 of 127.0.0.1: a test that reached the network would fail loudly
const SOURCES = { goProxy: 'http://127.0.0.1:9', cargoRegistry: 'http://127.0.0.1:9/index/' };
const home = join(root, 'home');

describe('acquireDependencies', () => {
  it('fetches nothing for a module without requirements, a crate without dependencies, or another build system', async () => {
    const go = tree('plain-go', { 'go.mod': 'module example.com/x\n\ngo 1.22\n' });
    expect(await acquireDependencies(go, { system: 'go', dir: '.' }, SOURCES, { home })).toBeNull();
    const crate = tree('plain-crate', { 'Cargo.toml': '[package]\nname = "x"\nversion = "0.1.0"\n' });
    expect(await acquireDependencies(crate, { system: 'cargo', dir: '.' }, SOURCES, { home })).toBeNull();
    expect(await acquireDependencies(go, { system: 'make', dir: '.' }, SOURCES, { home })).toBeNull();
    expect(await acquireDependencies(go, { system: 'go', dir: '.' }, {}, { home })).toBeNull();
  });

  it('refuses requirements that nothing can check: a go.mod without go.sum, dependencies without Cargo.lock', async () => {
    const go = tree('unsummed', { 'go.mod': 'module example.com/x\n\nrequire example.com/y v1.0.0\n' });
    await expect(acquireDependencies(go, { system: 'go', dir: '.' }, SOURCES, { home })).rejects.toThrow(
      /has requirements but no go\.sum/,
    );
    const crate = tree('unlocked', {
      'Cargo.toml': '[package]\nname = "x"\nversion = "0.1.0"\n\n[dependencies]\nfnv = "1"\n',
    });
    await expect(
      acquireDependencies(crate, { system: 'cargo', dir: '.' }, SOURCES, { home }),
    ).rejects.toThrow(/the port needs one/);
    const unsummed = tree('nochecksum', {
      'Cargo.toml': '[package]\nname = "x"\nversion = "0.1.0"\n\n[dependencies]\nfnv = "1"\n',
      'Cargo.lock':
        '[[package]]\nname = "fnv"\nversion = "1.0.7"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n',
    });
    await expect(
      acquireDependencies(unsummed, { system: 'cargo', dir: '.' }, SOURCES, { home }),
    ).rejects.toThrow(/gives fnv 1\.0\.7 no sha256 checksum/);
  });

  it('refuses a proxy URL that is not http(s) or carries credentials', async () => {
    const go = tree('urls', {
      'go.mod': 'module example.com/x\n\nrequire example.com/y v1.0.0\n',
      'go.sum': '',
    });
    for (const goProxy of ['file:///etc', 'http://user:secret@127.0.0.1/', 'not a url'])
      await expect(
        acquireDependencies(go, { system: 'go', dir: '.' }, { goProxy }, { home }),
        goProxy,
      ).rejects.toMatchObject({
        code: 'invalid',
      });
  });
});
