import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPort } from '../../src/port/run/runPort.ts';
import { makePortHome } from '../helpers/portHome.ts';

// A Go module with a requirement, ported for real and offline: the library comes from Debian's
// golang-*-dev package, built in a GOPATH with /usr/share/gocode as Debian's dh-golang builds.
const MINUTES = 60_000;
let home: string;
let work: string;

beforeAll(() => {
  home = makePortHome('rvport-go-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-go-work-'));
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

function module(): string {
  const dir = join(work, 'uuidprint');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'go.mod'),
    'module example.com/uuidprint\n\ngo 1.22\n\nrequire github.com/google/uuid v1.6.0\n',
  );
  // go.sum names a hash no Debian build consults: GOPATH mode does not read it
  writeFileSync(join(dir, 'go.sum'), 'github.com/google/uuid v1.6.0 h1:not-a-real-hash=\n');
  writeFileSync(
    join(dir, 'main.go'),
    'package main\n\nimport (\n\t"fmt"\n\n\t"github.com/google/uuid"\n)\n\nfunc main() {\n\tfmt.Println(uuid.NewSHA1(uuid.NameSpaceDNS, []byte("riscv.org")))\n}\n',
  );
  return dir;
}

describe('a Go module with a requirement, offline', () => {
  it(
    "builds from Debian's Go libraries, verified, and the report names the package",
    async () => {
      const notes: string[] = [];
      const started = Date.now();
      const result = await runPort(
        {
          source: module(),
          maxAttempts: 2,
          force: true,
          optimize: false,
          package: false,
          restart: false,
          mode: 'accelerated',
          out: join(work, 'out'),
          offline: true,
          keepSandbox: false,
          env: { ...process.env, RVPORT_HOME: home },
        },
        { signal: AbortSignal.timeout(30 * MINUTES), progress: (e) => notes.push(JSON.stringify(e)) },
      );
      const report = readFileSync(join(result.outDir, 'report.md'), 'utf8');
      console.log(`go port: ${result.kind} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      expect(result.kind, `${result.message}\n${notes.slice(-20).join('\n')}\n${report}`).toBe('verified');
      expect(result.state?.plan?.packages).toEqual(
        expect.arrayContaining(['golang-go', 'golang-github-google-uuid-dev']),
      );
      expect(result.state?.artifacts.find((a) => a.path === 'build/bin/uuidprint')).toMatchObject({
        machine: 'riscv64',
      });
      expect(result.state?.llm.calls).toBe(0);
      expect(report).toContain(
        "| github.com/google/uuid | direct | golang-github-google-uuid-dev | Debian's Go libraries |",
      );
    },
    35 * MINUTES,
  );
});
