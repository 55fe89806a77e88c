import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayPort } from '../../src/port/replay/replayPort.ts';
import { type PortRequest, runPort } from '../../src/port/run/runPort.ts';
import { RecipeCache } from '../../src/recipes/RecipeCache.ts';
import { recipeCacheDir } from '../../src/recipes/recipeCacheDir.ts';
import { type GoProxy, startGoProxy } from '../helpers/goProxyServer.ts';
import { makePortHome } from '../helpers/portHome.ts';
import { startCli } from '../helpers/rvportCli.ts';

// A Go module with a requirement, its modules fetched host-side from a local module proxy (the
// GOPROXY protocol over HTTP on 127.0.0.1), checked against go.sum, and built offline in the
// sandbox from the store, where go checks go.sum again. Then a proxy that serves a tampered
// zip: refused before anything reaches the sandbox.
const MINUTES = 60_000;
const DEP = 'example.com/Tiny/words'; // upper case: the proxy protocol's !-escaping is exercised
const DEP_FILES = {
  'go.mod': `module ${DEP}\n\ngo 1.22\n`,
  'words.go':
    'package words\n\n// Greeting is what the program prints.\nfunc Greeting() string { return "hello from riscv64" }\n',
};
let home: string;
let work: string;

beforeAll(() => {
  home = makePortHome('rvport-goproxy-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-goproxy-work-'));
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

function module(name: string, goSum: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'go.mod'), `module example.com/${name}\n\ngo 1.22\n\nrequire ${DEP} v1.2.0\n`);
  writeFileSync(join(dir, 'go.sum'), goSum);
  writeFileSync(
    join(dir, 'main.go'),
    `package main\n\nimport (\n\t"fmt"\n\n\t"${DEP}"\n)\n\nfunc main() {\n\tfmt.Println(words.Greeting())\n}\n`,
  );
  return dir;
}

function request(source: string, proxy: GoProxy): PortRequest {
  return {
    source,
    maxAttempts: 2,
    force: true,
    optimize: false,
    package: false,
    restart: false,
    mode: 'accelerated',
    out: join(work, 'out'),
    offline: true,
    keepSandbox: false,
    goProxy: proxy.url,
    env: { ...process.env, RVPORT_HOME: home },
  };
}

describe('a Go module whose requirement comes from a module proxy', () => {
  it(
    'fetches it, checks it against go.sum, builds offline from the store, verified; the report and the cache entry name it',
    async () => {
      const proxy = await startGoProxy([{ path: DEP, version: 'v1.2.0', files: DEP_FILES }]);
      try {
        const notes: string[] = [];
        const started = Date.now();
        const result = await runPort(request(module('greet', proxy.goSum), proxy), {
          signal: AbortSignal.timeout(30 * MINUTES),
          progress: (e) => notes.push(JSON.stringify(e)),
        });
        const report = readFileSync(join(result.outDir, 'report.md'), 'utf8');
        console.log(`go proxy port: ${result.kind} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
        expect(result.kind, `${result.message}\n${notes.slice(-20).join('\n')}\n${report}`).toBe('verified');
        expect(proxy.requests).toContain('/example.com/!tiny/words/@v/v1.2.0.zip');
        expect(result.state?.artifacts.find((a) => a.path === 'build/bin/greet')).toMatchObject({
          machine: 'riscv64',
        });
        const zipHash = /h1:\S+/.exec(proxy.goSum.split('\n').find((l) => !l.includes('/go.mod')) ?? '')?.[0];
        expect(result.state?.fetchedDependencies?.items).toEqual([
          expect.objectContaining({
            kind: 'go-module',
            name: DEP,
            version: 'v1.2.0',
            hash: zipHash,
            suppliedBy: 'proxy',
          }),
        ]);
        expect(report).toContain(`| ${DEP} | v1.2.0 | ${zipHash} | module proxy ${proxy.url} |`);
        const { entries } = await new RecipeCache(recipeCacheDir({ RVPORT_HOME: home })).list();
        expect(entries.find((e) => e.package === 'greet')?.fetchedDependencies).toEqual([
          expect.objectContaining({ name: DEP, version: 'v1.2.0', hash: zipHash }),
        ]);
        // the build read go.sum in module mode: go itself checked the fetched zip again
        expect(readFileSync(join(result.outDir, 'build.log'), 'utf8')).toContain(
          'GOPROXY=file:///build/deps',
        );
        expect(
          existsSync(
            join(
              home,
              'deps',
              'go',
              'cache',
              'download',
              'example.com',
              '!tiny',
              'words',
              '@v',
              'v1.2.0.zip',
            ),
          ),
        ).toBe(true);
        // the replay (the port's last step) had the fetched modules too: build.sh alone, in a
        // fresh instance, with the store's copy in /build/deps
        expect(result.state?.replay?.replayed, result.state?.replay?.reason).toBe('yes');
        // with the store gone (another machine), a replay says what is missing and how to fetch it
        rmSync(join(home, 'deps', 'go'), { recursive: true, force: true });
        const again = await replayPort({ dir: result.outDir, env: { ...process.env, RVPORT_HOME: home } });
        expect(again.record.replayed).toBe('no');
        expect(again.record.reason).toMatch(/not all in this machine's store .*port again with --go-proxy/);
      } finally {
        await proxy.close();
      }
    },
    35 * MINUTES,
  );

  it(
    'refuses a zip that does not match go.sum, with a clear message and exit code 1, and stores nothing',
    async () => {
      const honest = await startGoProxy([{ path: DEP, version: 'v1.3.0', files: DEP_FILES }]);
      await honest.close();
      const proxy = await startGoProxy([{ path: DEP, version: 'v1.3.0', files: DEP_FILES, tamper: true }]);
      try {
        const source = module('tampered', honest.goSum);
        writeFileSync(
          join(source, 'go.mod'),
          `module example.com/tampered\n\ngo 1.22\n\nrequire ${DEP} v1.3.0\n`,
        );
        const result = await runPort(request(source, proxy), {
          signal: AbortSignal.timeout(5 * MINUTES),
          progress: () => {},
        });
        expect(result.kind).toBe('escalated');
        expect(result.exitCode).toBe(1);
        expect(result.message).toMatch(/example\.com\/Tiny\/words@v1\.3\.0's zip does not match go\.sum/);
        expect(result.message).not.toMatch(/\n\s+at /); // no stack trace
        expect(result.state?.executed ?? []).toEqual([]); // nothing ran in a sandbox
        expect(
          existsSync(
            join(
              home,
              'deps',
              'go',
              'cache',
              'download',
              'example.com',
              '!tiny',
              'words',
              '@v',
              'v1.3.0.zip',
            ),
          ),
        ).toBe(false);
      } finally {
        await proxy.close();
      }
    },
    10 * MINUTES,
  );

  it(
    'through the CLI: --go-proxy with a tampered zip exits 1 with the reason, no stack trace',
    async () => {
      const honest = await startGoProxy([{ path: DEP, version: 'v1.4.0', files: DEP_FILES }]);
      await honest.close();
      const proxy = await startGoProxy([{ path: DEP, version: 'v1.4.0', files: DEP_FILES, tamper: true }]);
      try {
        const source = module('clitampered', honest.goSum);
        writeFileSync(
          join(source, 'go.mod'),
          `module example.com/clitampered\n\ngo 1.22\n\nrequire ${DEP} v1.4.0\n`,
        );
        const run = await startCli(
          ['port', source, '--go-proxy', proxy.url, '--offline', '--force', '--out', join(work, 'cli-out')],
          {
            cwd: work,
            env: { RVPORT_HOME: home },
          },
        ).done;
        expect(run.code, run.stderr).toBe(1);
        expect(run.stderr).toMatch(/example\.com\/Tiny\/words@v1\.4\.0's zip does not match go\.sum/);
        expect(run.stderr).not.toMatch(/\n\s+at /);
      } finally {
        await proxy.close();
      }
    },
    5 * MINUTES,
  );
});
