import { copyFile, lstat, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rvportHome } from '../../src/config/rvportHome.ts';
import { indexKey, readPackageIndex, treeListsDir } from '../../src/debian/readPackageIndex.ts';
import { imageKeys } from '../../src/sandbox/findImages.ts';
import { DEFAULT_SUITE } from '../../src/sandbox/imageRecipes.ts';
import { type ChrootSandbox, createSandbox } from '../../src/sandbox/index.ts';
import { archiveFileName } from '../../src/sandbox/packages/aptSelections.ts';
import { sandboxPaths } from '../../src/sandbox/sandboxPaths.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from '../sandbox/provisionedImages.ts';

/**
 * A build that replaces apt-get (the instance's own and the apt layer's frontend, both in its
 * writable overlay) with one that lies about what an install needs: a large package nobody asked
 * for, a package the lists do not have, and the requested package at 50 GiB, every URI on a
 * loopback server that stands in for the archive (RVPORT_DEBIAN_MIRROR) and records each request.
 * The product's install of a build dependency must fetch nothing (not one request), add nothing
 * to the deb cache, and say why. Before the host resolved downloads itself, the same answer made
 * it request the unasked-for package from the server (the URI was in the mirror's pool).
 */
const INSTALL_TIMEOUT_MS = 10 * 60_000;
const REQUESTED = 'uuid-dev';
const UNASKED = 'libllvm19';
const CACHED = 'hello';

let home: string;
let server: Server;
let mirror: string;
let cacheDir: string;
let box: ChrootSandbox;
const requests: string[] = [];
const savedMirror = process.env.RVPORT_DEBIAN_MIRROR;

/** A home of its own (private deb cache) over the machine's provisioned images. */
async function privateHome(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rvport-lying-apt-'));
  const shared = sandboxPaths(rvportHome());
  const own = sandboxPaths(dir);
  await mkdir(own.root, { recursive: true });
  await symlink(shared.images, own.images);
  await symlink(shared.bin, own.bin);
  return dir;
}

async function cacheListing(): Promise<string[]> {
  const names = await readdir(cacheDir).catch(() => [] as string[]);
  const rows: string[] = [];
  for (const name of names.sort()) {
    const info = await lstat(join(cacheDir, name));
    rows.push(`${name} ${info.size} ${info.mtimeMs}`);
  }
  return rows;
}

/** The print-uris line apt would print for `name` at `version`, with the size given. */
function line(name: string, version: string, filename: string, size: number, sha256: string): string {
  return `'${mirror}/${filename}' ${archiveFileName(name, version, 'riscv64')} ${size} SHA256:${sha256}`;
}

/**
 * A package the rootfs lacks, already in the private deb cache, so that the honest install needs
 * no download: copied from the machine's shared cache when an earlier run left it there, else
 * fetched once from the real archive by an instance that is then thrown away.
 */
async function seedCache(): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  const sharedCache = join(sandboxPaths(rvportHome()).debCache, 'sandbox-riscv64');
  const cached = (await readdir(sharedCache).catch(() => [] as string[])).find((n) =>
    n.startsWith(`${CACHED}_`),
  );
  if (cached) {
    await copyFile(join(sharedCache, cached), join(cacheDir, cached));
    return;
  }
  const seeder = await createSandbox({ home, mode: 'accelerated' });
  try {
    const result = await seeder.installPackages([CACHED], { timeoutMs: INSTALL_TIMEOUT_MS });
    if (result.exitCode !== 0)
      throw new Error(`seeding the deb cache with ${CACHED} failed: ${result.stderr}`);
  } finally {
    await seeder.destroy().catch(() => undefined);
  }
  if (!(await readdir(cacheDir)).some((n) => n.startsWith(`${CACHED}_`))) {
    throw new Error(`installing ${CACHED} left no package in the deb cache to seed the control with`);
  }
}

beforeAll(async () => {
  await provisionedImages();
  home = await privateHome();
  cacheDir = join(sandboxPaths(home).debCache, 'sandbox-riscv64');
  await seedCache();
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}/debian`;
  process.env.RVPORT_DEBIAN_MIRROR = mirror;
  box = await createSandbox({ home, mode: 'accelerated' });
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  if (savedMirror === undefined) delete process.env.RVPORT_DEBIAN_MIRROR;
  else process.env.RVPORT_DEBIAN_MIRROR = savedMirror;
  await box?.destroy().catch(() => undefined);
  await new Promise((resolve) => server?.close(resolve));
  if (home) await rm(home, { recursive: true, force: true });
});

describe('a build that lies through apt-get about what an install needs', () => {
  it(
    "the control: an honest install takes the cached package, checked against the host's index, and fetches nothing",
    async () => {
      const result = await box.installPackages([CACHED], { timeoutMs: INSTALL_TIMEOUT_MS });
      expect(result.stderr).not.toMatch(/^E: /m);
      expect(result.exitCode).toBe(0);
      expect((await box.run(['sh', '-c', 'command -v hello'])).stdout.trim()).toBe('/usr/bin/hello');
      expect(requests).toEqual([]);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    'fetches nothing it names, adds nothing to the deb cache and says why',
    async () => {
      const rootfs = imageKeys(DEFAULT_SUITE).rootfs;
      const lists = await treeListsDir(join(sandboxPaths(home).image(rootfs), 'tree'));
      const index = await readPackageIndex([lists as string]);
      const unasked = index.byName.get(UNASKED)?.[0];
      const requested = index.byName.get(REQUESTED)?.[0];
      if (!unasked || !requested) throw new Error(`the image's lists lack ${UNASKED} or ${REQUESTED}`);
      expect(index.byKey.has(indexKey('rvport-planted', '1.0', 'riscv64'))).toBe(false);
      const answer = [
        line(unasked.name, unasked.version, unasked.filename, unasked.size, unasked.sha256),
        line(
          'rvport-planted',
          '1.0',
          'pool/main/r/rvport-planted/rvport-planted_1.0_riscv64.deb',
          4096,
          'd'.repeat(64),
        ),
        line(requested.name, requested.version, requested.filename, 50 * 1024 ** 3, requested.sha256),
      ].join('\n');
      const liar = [
        '#!/bin/sh',
        'case " $* " in *" --print-uris "*) ;; *) echo "the lying apt-get ran an install" >&2; exit 1 ;; esac',
        `cat <<'EOF'\n${answer}\nEOF`,
      ].join('\n');
      // what a hostile build command does: it is root in its instance and writes its overlay
      const planted = await box.run([
        '/bin/sh',
        '-c',
        'set -e; mkdir -p /usr/lib/rvport-apt/frontend; for f in /usr/bin/apt-get /usr/lib/rvport-apt/frontend/apt-get; do printf "%s\\n" "$1" > "$f"; chmod 755 "$f"; done',
        'sh',
        liar,
      ]);
      expect(planted.exitCode).toBe(0);
      const before = await cacheListing();

      const result = await box.installPackages([REQUESTED], { timeoutMs: INSTALL_TIMEOUT_MS });

      expect(requests).toEqual([]);
      expect(await cacheListing()).toEqual(before);
      expect(result.exitCode).toBe(100);
      expect(result.stderr).toContain(
        `E: apt in the sandbox named ${unasked.name} ${unasked.version} (riscv64), which nothing requested depends on: nothing downloaded`,
      );
      expect(result.stderr).not.toContain('the lying apt-get ran an install');
    },
    INSTALL_TIMEOUT_MS,
  );
});
