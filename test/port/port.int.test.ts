import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portRunId } from '../../src/port/run/portRunId.ts';
import { parseSource } from '../../src/sources/parseSource.ts';
import { ensureCorpus } from '../helpers/corpus.ts';
import { makePortHome } from '../helpers/portHome.ts';
import { runCli, startCli, waitFor } from '../helpers/rvportCli.ts';

// Issue 5, done-when 3–5: real ports of real upstream code in the real riscv64 sandbox, through
// the real binary. The provisioned sandbox images and the Debian Contents index are shared with
// the machine's RVPORT_HOME; recipes, runs and sources go to a throwaway one.
const PACKAGES = ['cjson', 'libinih', 'sl', 'luajit'];
const MINUTES = 60_000;

let home: string;
let work: string;
let corpus: string;
const env = () => ({ RVPORT_HOME: home });
const outputs = (out: string, name: string) => join(work, out, name);
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

beforeAll(async () => {
  corpus = await ensureCorpus(PACKAGES);
  home = makePortHome('rvport-port-home-');
  work = mkdtempSync(join(tmpdir(), 'rvport-port-work-'));
}, 30 * MINUTES);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

async function port(source: string, out: string, ...flags: string[]) {
  const run = await runCli(['port', source, '--out', out, '--json', ...flags], { cwd: work, env: env() });
  return { ...run, result: run.stdout ? JSON.parse(run.stdout) : null };
}

describe.sequential('rvport port on real packages', () => {
  it(
    'ports cjson (CMake) to a verified riscv64 build with tests, a recipe and a cache entry',
    async () => {
      const { code, result, stderr } = await port(join(corpus, 'cjson'), 'a');
      expect(code, stderr).toBe(0);
      expect(result).toMatchObject({
        result: 'verified',
        buildSystem: 'cmake',
        cacheHit: false,
        attempts: 0,
      });
      expect(result.tests.ran).toBe(true);
      expect(result.tests.passed).toBeGreaterThan(0);
      const out = outputs('a', 'cjson');
      for (const f of ['recipe.md', 'report.md', 'state.json', 'build.log', 'llm-calls.jsonl'])
        expect(existsSync(join(out, f)), f).toBe(true);
      expect(readFileSync(join(out, 'recipe.md'), 'utf8')).toContain('cmake --build build');
      const state = readJson(join(out, 'state.json'));
      expect(state.artifacts.find((a: { role: string }) => a.role === 'shared-library')).toMatchObject({
        machine: 'riscv64',
        bits: 64,
        abi: 'lp64d',
      });
      expect(existsSync(join(home, 'recipes', 'cjson'))).toBe(true);
    },
    20 * MINUTES,
  );

  it(
    'answers the same port from the recipe cache, without a sandbox',
    async () => {
      const runFile = join(home, 'runs', `${portRunId(parseSource(join(corpus, 'cjson')))}.json`);
      const runBefore = readFileSync(runFile, 'utf8');
      const { code, result } = await port(join(corpus, 'cjson'), 'b');
      expect(code).toBe(0);
      expect(result).toMatchObject({
        result: 'verified',
        cacheHit: true,
        files: { written: ['recipe.md', 'cache-entry.json', 'build.sh', 'packages.txt', 'Dockerfile'] },
      });
      for (const name of ['recipe.md', 'build.sh', 'packages.txt', 'Dockerfile'])
        expect(readFileSync(join(outputs('b', 'cjson'), name), 'utf8'), name).toBe(
          readFileSync(join(outputs('a', 'cjson'), name), 'utf8'),
        );
      expect(readFileSync(runFile, 'utf8')).toBe(runBefore); // the graph did not run
    },
    5 * MINUTES,
  );

  it(
    'resumes at the build after SIGKILL in the middle of it, with the same recipe as an uninterrupted run',
    async () => {
      const { child, done } = startCli(['port', join(corpus, 'cjson'), '--force', '--out', 'c', '--json'], {
        cwd: work,
        env: env(),
      });
      const runFile = join(home, 'runs', `${portRunId(parseSource(join(corpus, 'cjson')))}.json`);
      const buildLog = join(outputs('c', 'cjson'), 'build.log');
      await waitFor(
        () => existsSync(buildLog) && readFileSync(buildLog, 'utf8').includes('[build]'),
        10 * MINUTES,
        'the build phase',
      );
      expect(readJson(runFile)).toMatchObject({ currentNode: 'build_fix_subgraph', status: 'running' });
      child.kill('SIGKILL');
      await done;
      const { code, result } = await port(join(corpus, 'cjson'), 'c', '--force');
      expect(code).toBe(0);
      expect(result).toMatchObject({ result: 'verified', resumed: true });
      expect(readFileSync(join(outputs('c', 'cjson'), 'recipe.md'), 'utf8')).toBe(
        readFileSync(join(outputs('a', 'cjson'), 'recipe.md'), 'utf8'),
      );
    },
    20 * MINUTES,
  );

  it(
    'starts again over the checkpoint of an interrupted port that another rvport wrote',
    async () => {
      const { child, done } = startCli(['port', join(corpus, 'cjson'), '--force', '--out', 'v', '--json'], {
        cwd: work,
        env: env(),
      });
      const runFile = join(home, 'runs', `${portRunId(parseSource(join(corpus, 'cjson')))}.json`);
      const buildLog = join(outputs('v', 'cjson'), 'build.log');
      await waitFor(
        () => existsSync(buildLog) && readFileSync(buildLog, 'utf8').includes('[configure]'),
        10 * MINUTES,
        'the configure phase',
      );
      child.kill('SIGKILL');
      await done;
      const run = readJson(runFile);
      expect(run.status).toBe('running');
      writeFileSync(
        runFile,
        JSON.stringify({ ...run, context: { ...run.context, rvportVersion: '0.0.1-older' } }),
      );
      const { code, result, stderr } = await port(join(corpus, 'cjson'), 'v', '--force');
      expect(code, stderr).toBe(0);
      expect(result).toMatchObject({ result: 'verified', resumed: false });
      expect(stderr).toContain('the interrupted port of cjson is started again: rvport 0.0.1-older wrote it');
    },
    20 * MINUTES,
  );

  it(
    'resumes after SIGKILL in finish: the build is made again in the new instance, tests and artifacts are real',
    async () => {
      const { child, done } = startCli(['port', join(corpus, 'cjson'), '--force', '--out', 'f', '--json'], {
        cwd: work,
        env: env(),
      });
      const runFile = join(home, 'runs', `${portRunId(parseSource(join(corpus, 'cjson')))}.json`);
      const inFinish = () => {
        try {
          const run = readJson(runFile);
          return run.currentNode === 'finish' && run.status === 'running';
        } catch {
          return false; // not written yet, or being replaced
        }
      };
      await waitFor(inFinish, 15 * MINUTES, 'the finish node');
      child.kill('SIGKILL');
      await done;
      const { code, result } = await port(join(corpus, 'cjson'), 'f', '--force');
      expect(code).toBe(0);
      expect(result).toMatchObject({ result: 'verified', resumed: true });
      expect(result.tests.ran).toBe(true);
      expect(result.tests.passed).toBeGreaterThan(0);
      const state = readJson(join(outputs('f', 'cjson'), 'state.json'));
      expect(state.audit.map((a: { event: string }) => a.event)).toContain('rebuilt');
      expect(state.smokeTests.every((t: { exitCode: number }) => t.exitCode !== 127)).toBe(true);
      const artifacts = join(outputs('f', 'cjson'), 'artifacts');
      const shared = state.artifacts.find((a: { role: string }) => a.role === 'shared-library');
      expect(existsSync(join(artifacts, shared.path)), shared.path).toBe(true);
    },
    30 * MINUTES,
  );

  it(
    'ports libinih (Meson) and packages it with --package',
    async () => {
      const { code, result, stderr } = await port(join(corpus, 'libinih'), 'a', '--package');
      expect(code, stderr).toBe(0);
      expect(result).toMatchObject({ result: 'verified', buildSystem: 'meson' });
      const zip = unzipSync(readFileSync(join(outputs('a', 'libinih'), 'libinih-riscv64.zip')));
      expect(Object.keys(zip)).toEqual(
        expect.arrayContaining(['recipe.md', 'report.md', 'state.json', 'manifest.json']),
      );
      const library = Object.keys(zip).find((f) => f.startsWith('artifacts/') && /libinih\.so/.test(f));
      expect(library, Object.keys(zip).join(', ')).toBeDefined();
      expect(Buffer.from(zip[library as string] as Uint8Array).readUInt16LE(18)).toBe(243); // e_machine: RISC-V
      const manifest = JSON.parse(Buffer.from(zip['manifest.json'] as Uint8Array).toString());
      expect(manifest).toMatchObject({ package: 'libinih', verification: { verdict: 'verified' } });
    },
    20 * MINUTES,
  );

  it(
    'ports sl (plain Makefile) after installing the package of a missing header',
    async () => {
      const { code, result, stderr } = await port(join(corpus, 'sl'), 'a');
      expect(code, stderr).toBe(0);
      expect(result).toMatchObject({ result: 'verified', buildSystem: 'make' });
      const state = readJson(join(outputs('a', 'sl'), 'state.json'));
      expect(state.fixAttempts).toEqual([
        expect.objectContaining({ source: 'heuristic', name: 'install-missing-package', outcome: 'applied' }),
      ]);
      expect(state.plan.packages).toContain('libncurses-dev');
      expect(readFileSync(join(outputs('a', 'sl'), 'recipe.md'), 'utf8')).toContain('libncurses-dev');
      // the mode was chosen for this source: its git tree is the corpus checkout's
      const tree = execFileSync('git', ['rev-parse', 'HEAD^{tree}'], {
        cwd: join(corpus, 'sl'),
        encoding: 'utf8',
      });
      expect(state.source.tree).toBe(tree.trim());
      expect(state.options.modeReason).toMatch(/sl/);
    },
    20 * MINUTES,
  );

  it(
    'with --optimize builds sl again from its verified cache entry, without analysis or repairs',
    async () => {
      const { code, result, stderr } = await port(join(corpus, 'sl'), 'opt', '--optimize');
      expect(code, stderr).toBe(0);
      expect(result).toMatchObject({ result: 'verified', cacheHit: false });
      const state = readJson(join(outputs('opt', 'sl'), 'state.json'));
      expect(state.plan).toMatchObject({ origin: 'cache', packages: ['libncurses-dev'] });
      expect(state.fixAttempts).toEqual([]); // the cached plan already has the repair in it
      const nodes = state.audit.map((a: { node: string }) => a.node);
      expect(nodes).toContain('cached_recipe');
      expect(nodes).not.toContain('analyst');
      // performance mode ran on the rebuilt port; under emulation it makes no speed claim
      expect(state.audit.at(-1)).toMatchObject({ node: 'optimize', event: 'optimized' });
      expect(state.optimization).toMatchObject({ status: 'done', winner: null });
      expect(state.optimization.verdict).toMatch(/^no speed claim under emulation/);
    },
    20 * MINUTES,
  );

  it(
    'escalates luajit clearly: no riscv64 backend',
    async () => {
      const { code, result } = await port(join(corpus, 'luajit'), 'a');
      expect(code).toBe(1);
      expect(result).toMatchObject({ result: 'escalated', errorCategory: 'ARCHITECTURE_IMPOSSIBLE' });
      const escalation = readFileSync(join(outputs('a', 'luajit'), 'escalation.md'), 'utf8');
      expect(escalation).toMatch(/No support for this architecture|Architecture not supported/);
      expect(escalation).toMatch(/no riscv64 support/);
    },
    20 * MINUTES,
  );

  it(
    'refuses a bad SOURCE with exit 1 before anything runs',
    async () => {
      const { code, stderr } = await port('https://example.invalid/x;rm -rf ~', 'a');
      expect(code).toBe(1);
      expect(stderr).toMatch(/shell metacharacters/);
      const missing = await port(join(work, 'no-such-dir'), 'a');
      expect(missing.code).toBe(1);
    },
    2 * MINUTES,
  );
});
