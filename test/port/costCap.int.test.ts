import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_TABLE } from '../../src/llm/index.ts';
import { makePortHome } from '../helpers/portHome.ts';
import { runCli } from '../helpers/rvportCli.ts';
import { FakeLlmServer } from '../llm/fakeLlmServer.ts';

// Issue 6: the cost cap stops a port. Every answer of the fake server is useless and costly, so
// the first LLM step (the analyst) spends past the cap; the next exchange is refused by the
// client, and the port escalates saying why, with every dollar accounted for.
const MODEL = 'gpt-5.4-mini';
const server = new FakeLlmServer();
let dir: string;
let home: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-costcap-'));
  home = makePortHome('rvport-costcap-home-');
  mkdirSync(join(dir, 'tiny'));
  writeFileSync(join(dir, 'tiny', 'Makefile'), 'all: tiny\ntiny: tiny.c\n\t$(CC) -o tiny tiny.c\n');
  writeFileSync(join(dir, 'tiny', 'tiny.c'), 'int main(void) { return 0; }\n');
  await server
    .respondWith(() => ({ text: 'not the JSON you asked for', usage: { input: 40_000, output: 2_000 } }))
    .start();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('the LLM cost cap', () => {
  it('escalates the port when the LLM cost passes --cost-cap, with the calls and cost recorded', async () => {
    const run = await runCli(['port', join(dir, 'tiny'), '--out', 'out', '--json', '--cost-cap', '0.01'], {
      cwd: dir,
      env: {
        RVPORT_HOME: home,
        LLM_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: server.openAiBaseUrl,
        RVPORT_LLM_MODEL: MODEL,
      },
    });
    expect(run.code, run.stderr).toBe(1);
    const state = JSON.parse(readFileSync(join(dir, 'out', 'tiny', 'state.json'), 'utf8'));
    expect(state.buildStatus).toBe('ESCALATED');
    expect(state.escalationReason).toMatch(/cap of \$0\.01/);
    const price = DEFAULT_PRICE_TABLE[MODEL];
    if (!price) throw new Error(`${MODEL} is not in the price table`);
    const perExchange = (40_000 * price.input + 2_000 * price.output) / 1e6;
    expect(perExchange).toBeGreaterThan(0.01); // one exchange passes the cap
    expect(server.requests).toHaveLength(1);
    expect(state.llm).toMatchObject({ calls: 1, inputTokens: 40_000, outputTokens: 2_000 });
    expect(state.llm.costUsd).toBeCloseTo(perExchange, 12);
    expect(
      readFileSync(join(dir, 'out', 'tiny', 'llm-calls.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(1);
    expect(readFileSync(join(dir, 'out', 'tiny', 'escalation.md'), 'utf8')).toMatch(/cap/);
  }, 120_000);
});
