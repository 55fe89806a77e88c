import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChrootSandbox } from '../../src/sandbox/chroot/ChrootSandbox.ts';
import { createSandbox } from '../../src/sandbox/createSandbox.ts';
import type { AptLayer } from '../../src/sandbox/packages/aptLayer.ts';
import { APT_LAYER_RECORD } from '../../src/sandbox/packages/aptLayer.ts';
import { LATER_PERL_PROGRAMS } from '../../src/sandbox/packages/maintainerPerl.ts';
import { BYTE_COMPILERS } from '../../src/sandbox/packages/skipByteCompile.ts';
import { sandboxPaths } from '../../src/sandbox/sandboxPaths.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from './provisionedImages.ts';

// What an install's maintainer scripts are spared, and that the packages still work: docbook-xml's
// postinst registers its catalogs through xml-core's perl tool (under the x86_64 perl in
// native-userland mode), and python3-six's postinst byte-compiles nothing; Python compiles six
// when it is first imported.
const paths = sandboxPaths();
let box: ChrootSandbox;

beforeAll(async () => {
  await provisionedImages();
  box = await createSandbox({ mode: 'native-userland' });
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  await box?.destroy();
});

const sh = (script: string) => box.run(['sh', '-c', script], { timeoutMs: 300_000 });

describe('the install helpers of the apt layer', () => {
  it(
    'register docbook-xml’s catalogs with the x86_64 perl and leave byte-compilation to Python',
    async () => {
      const { lowerKeys } = JSON.parse(
        await readFile(join(paths.instance(box.id), 'instance.json'), 'utf8'),
      ) as { lowerKeys: string[] };
      const layer = JSON.parse(
        await readFile(join(paths.image(lowerKeys[0] ?? ''), APT_LAYER_RECORD), 'utf8'),
      ) as AptLayer;
      expect(layer.byteCompileSkipped).toEqual([...BYTE_COMPILERS]);
      expect(layer.maintainerPerl).toEqual({ helpers: expect.arrayContaining([...LATER_PERL_PROGRAMS]) });

      const installed = await box.installPackages(['docbook-xml', 'python3-six'], { timeoutMs: 20 * 60_000 });
      expect(installed.exitCode, installed.stderr.slice(-2000)).toBe(0);

      // the catalogs are there, as the riscv64 perl writes them
      const catalog = await sh(
        'grep -c "docbook" /etc/xml/catalog; grep -c "OASIS//DTD DocBook XML V4.5//EN" /etc/xml/docbook-xml.xml',
      );
      expect(catalog.exitCode, catalog.stderr).toBe(0);
      const [entries, v45] = catalog.stdout.trim().split('\n').map(Number);
      expect(entries).toBeGreaterThan(0);
      expect(v45).toBeGreaterThan(0);
      // the tool ran under the x86_64 perl: the stand-in takes it for a perl script
      const standIn = await sh('head -n 1 /usr/sbin/update-xmlcatalog');
      expect(standIn.stdout).toContain('#!/usr/bin/perl');

      // six has no .pyc after the install, imports, and then has one
      const before = await sh(
        'ls /usr/lib/python3/dist-packages/__pycache__/ 2>/dev/null | grep -c "^six\\." || true',
      );
      expect(before.stdout.trim()).toBe('0');
      const imported = await sh('python3 -c "import six; print(six.PY3)"');
      expect(imported.stdout.trim(), imported.stderr).toBe('True');
      const after = await sh('ls /usr/lib/python3/dist-packages/__pycache__/ | grep -c "^six\\."');
      expect(Number(after.stdout.trim())).toBe(1);
    },
    25 * 60_000,
  );
});
