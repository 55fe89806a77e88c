import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPort } from '../../src/port/run/runPort.ts';
import { makePortHome } from '../helpers/portHome.ts';

// A program that includes a library's header by its bare name (`quickjs-libc.h`) where the
// Debian package keeps it in a folder of its own (/usr/include/quickjs), and whose Makefile adds
// no -I for it: the missing-header repair finds the package by the folder's name, installs it,
// and puts the folder on CPATH, which the recipe keeps. Real sandbox, real Contents index.
const MINUTES = 60_000;
let home: string;
let work: string;

beforeAll(() => {
  home = makePortHome('rvport-header-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-header-work-'));
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe("a header in its library's own folder", () => {
  it(
    'installs the package, puts the folder on CPATH and builds, verified; build.sh sets CPATH',
    async () => {
      const dir = join(work, 'jsprobe');
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'probe.c'),
        '#include "quickjs-libc.h"\n\nint probe_runtime(void) {\n  JSRuntime *rt = JS_NewRuntime();\n  JS_FreeRuntime(rt);\n  return 0;\n}\n',
      );
      writeFileSync(
        join(dir, 'Makefile'),
        'all: probe.o\n\nprobe.o: probe.c\n\t$(CC) $(CFLAGS) -c -o $@ probe.c\n',
      );
      const result = await runPort(
        {
          source: dir,
          maxAttempts: 3,
          force: true,
          optimize: false,
          package: false,
          restart: false,
          mode: 'accelerated',
          out: join(work, 'out'),
          offline: true,
          keepSandbox: false,
          replay: false,
          env: { ...process.env, RVPORT_HOME: home },
        },
        { signal: AbortSignal.timeout(20 * MINUTES), progress: () => {} },
      );
      expect(result.kind, result.message).toBe('verified');
      expect(result.state?.plan?.packages).toContain('libquickjs');
      expect(result.state?.plan?.env?.CPATH).toBe('/usr/include/quickjs');
      expect(readFileSync(join(result.outDir, 'build.sh'), 'utf8')).toContain('CPATH=');
      expect(result.state?.artifacts.find((a) => a.path.endsWith('probe.o'))).toMatchObject({
        machine: 'riscv64',
      });
    },
    25 * MINUTES,
  );
});
