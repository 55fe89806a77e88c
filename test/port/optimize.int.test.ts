import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OptimizationReport } from '../../src/optimize/OptimizationReport.ts';
import { CRUNCH_PROJECT } from '../helpers/crunchProject.ts';
import { makePortHome } from '../helpers/portHome.ts';
import { runCli } from '../helpers/rvportCli.ts';
import { FakeLlmServer } from '../llm/fakeLlmServer.ts';

// Performance mode end to end: a compute-bound package of our own (a plain Makefile that honours
// CFLAGS and LDFLAGS, a static library, a program and a check target) is ported with --optimize
// in the real riscv64 sandbox under qemu. The optimizer role of a real LLM client over HTTP (the
// local fake server) proposes the workload; every other role gets an error and falls back.
const WORKLOAD = './crunch 3000000';
const server = new FakeLlmServer();
let dir: string;
let home: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-optimize-'));
  home = makePortHome('rvport-optimize-home-');
  mkdirSync(join(dir, 'crunch'));
  for (const [name, text] of Object.entries(CRUNCH_PROJECT)) writeFileSync(join(dir, 'crunch', name), text);
  await server
    .respondWith((request) => {
      const format = request.body.response_format as { json_schema?: { name?: string } } | undefined;
      if (format?.json_schema?.name === 'workload')
        return {
          text: JSON.stringify({
            workload: 'command',
            command: WORKLOAD,
            harness_c: '',
            build_command: '',
            reason: 'three million rounds of the kernel',
          }),
          usage: { input: 300, output: 40 },
        };
      return { status: 400, message: 'this test answers the optimizer only' };
    })
    .start();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('rvport port --optimize under emulation', () => {
  it('builds and gates at least four tunes, times them and makes no speed claim', async () => {
    const run = await runCli(
      ['port', join(dir, 'crunch'), '--out', 'out', '--json', '--optimize', '--mode', 'accelerated'],
      {
        cwd: dir,
        env: {
          RVPORT_HOME: home,
          LLM_PROVIDER: 'openai',
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: server.openAiBaseUrl,
          RVPORT_LLM_MODEL: 'gpt-5.4-mini',
        },
      },
    );
    const out = join(dir, 'out', 'crunch');
    // performance mode never changes the exit code of a verified port
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const state = JSON.parse(readFileSync(join(out, 'state.json'), 'utf8'));
    const report: OptimizationReport = state.optimization;
    expect(report.status, report.reason).toBe('done');
    expect(report.target?.emulated).toBe(true);
    expect(report.target?.march).toMatch(/^rv64gc_zba_zbb/);
    expect(report.workload).toMatchObject({ source: 'optimizer', commands: [WORKLOAD], compare: 'exact' });
    const gated = report.tunes.filter((t) => t.status === 'gated');
    expect(gated.length, JSON.stringify(report.tunes, null, 1)).toBeGreaterThanOrEqual(4);
    // the -march tune is shown in the ELF attributes of the program and of the library's members
    const march = report.tunes.find((t) => t.name === 'march');
    expect(march?.status).toBe('gated');
    expect(march?.env.CFLAGS).toContain(`-march=${report.target?.march}`);
    expect(march?.gates.find((g) => g.name === 'artifacts')?.detail).toMatch(/recording zba, zbb/);
    expect(report.tunes.find((t) => t.name === 'PGO')?.stages).toHaveLength(3);
    expect(report.tunes.find((t) => t.name === 'clang')?.status).toMatch(/not-built|gated/);
    for (const tune of gated) {
      expect(tune.gates.map((g) => [g.name, g.passed])).toEqual([
        ['build', true],
        ['artifacts', true],
        ['workload', true],
        ['tests', true],
      ]);
      expect(tune.timing?.runs).toBe(3);
    }
    // under emulation: timed, never a winner
    expect(report.winner).toBeNull();
    expect(report.verdict).toMatch(/^no speed claim under emulation/);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('## Optimization');
    expect(md).toContain('no speed claim under emulation');
    expect(md).toMatch(/Deterministic cost proxy: none available/);
    expect(existsSync(join(out, 'optimized-recipe.md'))).toBe(false);
    // the optimizer's call went over HTTP, is logged and counted
    expect(server.requests.some((r) => JSON.stringify(r.body).includes('"name":"workload"'))).toBe(true);
    const calls = readFileSync(join(out, 'llm-calls.jsonl'), 'utf8');
    expect(calls).toMatch(/"role":"optimizer"/);
    expect(state.verification.verdict).toBe('verified');
  }, 1_200_000);
});
