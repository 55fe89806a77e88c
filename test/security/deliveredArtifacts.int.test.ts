import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePortHome } from '../helpers/portHome.ts';
import { runCli } from '../helpers/rvportCli.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from '../sandbox/provisionedImages.ts';

/**
 * "verified" describes the bytes delivered, built from this source, now: hostile repositories
 * ported with the real CLI (`rvport port DIR --offline`) whose tests swap or pad a verified
 * program after the verify node, or whose build only copies a riscv64 object the source shipped.
 */
const PORT_TIMEOUT_MS = 10 * 60_000;
const fixture = (name: string) => new URL(`../../src/verify/fixtures/${name}`, import.meta.url).pathname;
const HELLO_C = '#include <stdio.h>\nint main(void) { puts("hello riscv64"); return 0; }\n';

let work: string;
let home: string;

beforeAll(async () => {
  await provisionedImages();
  work = await mkdtemp(join(tmpdir(), 'rvport-delivered-'));
  home = makePortHome();
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  for (const dir of [work, home]) await rm(dir, { recursive: true, force: true });
});

/** A repository of text files and fixture copies (`{ from: 'riscv64-lib.so' }`). */
async function hostileRepo(name: string, files: Record<string, string | { from: string }>): Promise<string> {
  const dir = join(work, name);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    if (typeof content === 'string') await writeFile(join(dir, file), content);
    else copyFileSync(fixture(content.from), join(dir, file));
  }
  return dir;
}

async function port(dir: string, extra: string[] = []) {
  const out = join(work, `out-${Math.random().toString(36).slice(2)}`);
  const result = await runCli(
    ['port', dir, '--offline', '--out', out, '--mode', 'accelerated', '--no-replay', ...extra],
    { cwd: work, env: { RVPORT_HOME: home } },
  );
  const portDir = join(out, dir.split('/').at(-1) ?? '');
  const state = JSON.parse(await readFile(join(portDir, 'state.json'), 'utf8'));
  const report = await readFile(join(portDir, 'report.md'), 'utf8');
  return { ...result, out: portDir, state, report };
}

/** Disk blocks the host holds for a folder (what `du` counts), in bytes. */
function diskBytes(dir: string): number {
  return Number(execFileSync('du', ['-s', '-B1', dir], { encoding: 'utf8' }).split('\t')[0]);
}

const BUILD_HELLO = [
  'all: hello',
  'hello: hello.c',
  '\t$(CC) -O1 -o $@ $<',
  'install:',
  '\tmkdir -p $(DESTDIR)/usr/bin && cp hello $(DESTDIR)/usr/bin/',
];

describe('the verdict describes the bytes delivered', () => {
  it(
    'a build whose tests leave the artifacts alone is verified, delivered and packaged',
    async () => {
      const dir = await hostileRepo('benign', {
        'hello.c': HELLO_C,
        Makefile: [...BUILD_HELLO, 'check: hello', '\t./hello', ''].join('\n'),
      });
      const result = await port(dir, ['--package']);
      expect(result.code).toBe(0);
      expect(result.state.verification.verdict).toBe('verified');
      expect(result.state.delivery).toMatchObject({
        delivered: expect.arrayContaining(['hello', 'DESTDIR/usr/bin/hello']),
        reverified: [],
        refused: [],
      });
      const zip = unzipSync(readFileSync(join(result.out, 'benign-riscv64.zip')));
      expect(Object.keys(zip)).toEqual(expect.arrayContaining(['artifacts/hello', 'manifest.json']));
      expect(
        Buffer.from(zip['artifacts/hello'] ?? []).equals(
          readFileSync(join(result.out, 'artifacts', 'hello')),
        ),
      ).toBe(true);
    },
    PORT_TIMEOUT_MS,
  );

  it(
    'a check target that swaps the verified program for an x86_64 one or a script: not verified, not delivered',
    async () => {
      const dir = await hostileRepo('swap', {
        'hello.c': HELLO_C,
        'prebuilt/x86prog': { from: 'x86_64-exe' },
        Makefile: [
          ...BUILD_HELLO,
          'check:',
          '\tcp prebuilt/x86prog hello',
          `\tprintf '#!/bin/sh\\necho not riscv64\\n' > "$$RVPORT_DESTDIR/usr/bin/hello"`,
          '',
        ].join('\n'),
      });
      const result = await port(dir);
      expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
      expect(result.code).toBe(3);
      expect(result.state.verification.verdict).toBe('not_verified');
      expect(result.state.verification.reason).toMatch(
        /hello refused: it changed after verification and is x86_64 64-bit now, not riscv64/,
      );
      expect(result.state.verification.reason).toMatch(
        /DESTDIR\/usr\/bin\/hello refused: it changed after verification and is not an ELF file now/,
      );
      expect(result.report).toMatch(/## Delivered artifacts/);
      expect(result.report).toMatch(/verification \| not_verified/);
      // nothing that was not verified is in OUT/
      expect(() => readFileSync(join(result.out, 'artifacts', 'hello'))).toThrow(/ENOENT/);
      expect(() => readFileSync(join(result.out, 'artifacts', 'DESTDIR', 'usr', 'bin', 'hello'))).toThrow(
        /ENOENT/,
      );
    },
    PORT_TIMEOUT_MS,
  );

  it(
    'a check target that pads verified artifacts with GiB of holes: small on the host, refused with the reason',
    async () => {
      const dir = await hostileRepo('holes', {
        'hello.c': HELLO_C,
        Makefile: [
          ...BUILD_HELLO,
          'check:',
          '\ttruncate -s 3G hello',
          '\ttruncate -s 1536M "$$RVPORT_DESTDIR/usr/bin/hello"',
          '',
        ].join('\n'),
      });
      const result = await port(dir);
      expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
      expect(diskBytes(result.out)).toBeLessThan(64 * 1024 * 1024);
      expect(result.code).toBe(3);
      expect(result.state.verification.verdict).toBe('not_verified');
      expect(result.state.verification.reason).toMatch(
        /hello refused: 3221225472 bytes \(apparent size\), over the limit of 1073741824 per artifact \(\d+ bytes when verified: it changed after verification\)/,
      );
      expect(result.state.verification.reason).toMatch(/DESTDIR\/usr\/bin\/hello refused: 1610612736 bytes/);
      expect(result.report).toMatch(/\| hello \| yes \| 3221225472 bytes \(apparent size\)/);
    },
    PORT_TIMEOUT_MS,
  );

  it(
    'a build that only copies a riscv64 object and library the source shipped is not verified as built',
    async () => {
      const dir = await hostileRepo('shipped', {
        'fast.c': 'int fast(void) { return 1; }\n',
        'prebuilt/libfast.so': { from: 'riscv64-lib.so' },
        'prebuilt/fast.o': { from: 'riscv64-norvc.o' },
        Makefile: [
          'all:',
          '\tcp prebuilt/libfast.so libfast.so.1',
          'install:',
          '\tmkdir -p $(DESTDIR)/usr/lib',
          '\tcp prebuilt/libfast.so $(DESTDIR)/usr/lib/libfast.so.1',
          '\tcp prebuilt/fast.o $(DESTDIR)/usr/lib/fast.o',
          '',
        ].join('\n'),
      });
      const result = await port(dir);
      expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
      expect(result.code).toBe(3);
      expect(result.state.verification.verdict).toBe('not_verified');
      expect(result.state.verification.reason).toMatch(
        /object\(s\) shipped in the source and copied by the build not counted as built/,
      );
      expect(result.state.shippedInSource).toEqual(
        expect.arrayContaining([
          { path: 'libfast.so.1', from: 'prebuilt/libfast.so' },
          { path: 'DESTDIR/usr/lib/libfast.so.1', from: 'prebuilt/libfast.so' },
          { path: 'DESTDIR/usr/lib/fast.o', from: 'prebuilt/fast.o' },
        ]),
      );
      expect(result.report).toMatch(/## Shipped in the source/);
      expect(result.state.artifacts).toEqual([]);
    },
    PORT_TIMEOUT_MS,
  );
});
