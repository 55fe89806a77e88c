import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDependencies } from '../../src/sources/deps/acquireDependencies.ts';
import { goDirHash, goModHash } from '../../src/sources/deps/goDirHash.ts';
import { type RegistryCrate, startCargoRegistry } from '../helpers/cargoRegistryServer.ts';

// Hostile dependency archives from a real registry and a real module proxy over HTTP: a .crate
// whose checksum matches the lock (the publisher is the attacker) but whose members climb out
// of the store or link to host files, and a module zip with a traversal name. Each is refused
// with a clear error; the host canary is untouched and nothing lands in the store.
// made at load time: the hostile entries below name the canary's absolute path
const root = mkdtempSync(join(tmpdir(), 'rvport-hostile-deps-'));
const home = join(root, 'home');
const canary = join(root, 'canary.txt');

beforeAll(() => {
  mkdirSync(home);
  writeFileSync(canary, 'untouched\n');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(name: string, lock: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'Cargo.toml'),
    `[package]\nname = "${name}"\nversion = "0.1.0"\n\n[dependencies]\nevil = "0.1"\n`,
  );
  writeFileSync(join(dir, 'Cargo.lock'), lock);
  return dir;
}

const cases: { what: string; extra: RegistryCrate['extra']; error: RegExp }[] = [
  {
    what: 'a member that climbs out of the store',
    extra: [{ name: 'evil-0.1.0/../../../../canary.txt', type: '0', content: 'overwritten\n' }],
    error: /'\.\.' component/,
  },
  {
    what: 'a symbolic link to a host file',
    extra: [{ name: 'evil-0.1.0/src/secret.rs', type: '2', linkname: canary }],
    error: /symbolic link .* points outside the tree/,
  },
  {
    what: 'a symbolic link inside the crate (crates carry none)',
    extra: [{ name: 'evil-0.1.0/src/alias.rs', type: '2', linkname: 'lib.rs' }],
    error: /not a regular file/,
  },
];

describe('hostile dependency archives', () => {
  for (const c of cases) {
    it(`refuses a .crate with ${c.what}`, async () => {
      const crate: RegistryCrate = {
        name: 'evil',
        version: '0.1.0',
        files: { 'Cargo.toml': '[package]\nname = "evil"\nversion = "0.1.0"\n', 'src/lib.rs': '\n' },
        extra: c.extra,
      };
      const registry = await startCargoRegistry([crate]);
      try {
        const sum = registry.checksums.get('evil 0.1.0');
        const lock = `version = 3\n\n[[package]]\nname = "evil"\nversion = "0.1.0"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "${sum}"\n`;
        const error = await acquireDependencies(
          tree(`victim${cases.indexOf(c)}`, lock),
          { system: 'cargo', dir: '.' },
          { cargoRegistry: registry.indexUrl },
          { home },
        ).then(
          () => null,
          (e: Error & { code?: string }) => e,
        );
        expect(error?.name).toBe('SourceError');
        expect(error?.code).toBe('unsafe-entry');
        expect(error?.message).toMatch(c.error);
        expect(readFileSync(canary, 'utf8')).toBe('untouched\n');
        expect(readdirSync(join(home, 'deps', 'cargo', 'crates'))).toEqual([]);
      } finally {
        await registry.close();
      }
    });
  }

  it('refuses a module zip with a traversal name even when go.sum names its hash', async () => {
    const { createServer } = await import('node:http');
    const module = 'example.com/evil';
    const name = `${module}@v1.0.0/../../../../canary.txt`;
    const zip = zipSync({
      [`${module}@v1.0.0/go.mod`]: Buffer.from(`module ${module}\n`),
      [name]: Buffer.from('x'),
    });
    const server = createServer((req, res) => {
      const body = req.url?.endsWith('.zip')
        ? zip
        : req.url?.endsWith('.mod')
          ? Buffer.from(`module ${module}\n`)
          : null;
      if (body) res.writeHead(200).end(body);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const dir = join(root, 'govictim');
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'go.mod'),
        `module example.com/victim\n\ngo 1.22\n\nrequire ${module} v1.0.0\n`,
      );
      const zipHash = goDirHash([{ name, data: Buffer.from('x') }]);
      writeFileSync(
        join(dir, 'go.sum'),
        `${module} v1.0.0 ${zipHash}\n${module} v1.0.0/go.mod ${goModHash(Buffer.from(`module ${module}\n`))}\n`,
      );
      const error = await acquireDependencies(
        dir,
        { system: 'go', dir: '.' },
        { goProxy: `http://127.0.0.1:${port}` },
        { home },
      ).then(
        () => null,
        (e: Error & { code?: string }) => e,
      );
      expect(error?.code).toBe('unsafe-entry');
      expect(error?.message).toMatch(/refusing entry .*'\.\.' element/);
      expect(readFileSync(canary, 'utf8')).toBe('untouched\n');
      expect(
        existsSync(join(home, 'deps', 'go', 'cache', 'download', 'example.com', 'evil', '@v', 'v1.0.0.zip')),
      ).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
