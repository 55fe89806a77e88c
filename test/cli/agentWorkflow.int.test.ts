import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/rvportCli.ts';
import { FakeLlmServer } from '../llm/fakeLlmServer.ts';

// Issue 6: the engine's AgentNode runs on rvport's LLM layer, with read-only sandbox commands as
// its tools. A fake OpenAI-compatible server asks for two commands (one the guard must refuse),
// then answers; the commands really run in the riscv64 sandbox.
const FIXTURE = new URL('./fixtures/agent-sandbox.workflow.ts', import.meta.url).pathname;
const server = new FakeLlmServer();
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-agent-'));
  await server.start();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('AgentNode with the sandbox command tool', () => {
  it('runs the allowed command in the riscv64 sandbox, refuses the other, and stores the answer', async () => {
    server.enqueue(
      {
        text: '',
        toolCalls: [
          { id: 'call-1', name: 'sandbox', input: { command: 'uname -m' } },
          { id: 'call-2', name: 'sandbox', input: { command: 'mount -t tmpfs none /mnt' } },
        ],
        usage: { input: 50, output: 20 },
      },
      { text: 'The sandbox reports riscv64.', usage: { input: 90, output: 8 } },
    );
    const run = await runCli(['workflow', 'run', FIXTURE, '--state-dir', join(dir, 'state'), '--json'], {
      cwd: dir,
      env: {
        LLM_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: server.openAiBaseUrl,
        RVPORT_LLM_MODEL: 'gpt-5.4-mini',
      },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).context.answer).toBe('The sandbox reports riscv64.');
    const second = JSON.stringify(server.requests[1]?.body.messages);
    expect(second).toContain('[sandbox] exit 0\\nriscv64');
    expect(second).toMatch(/\[sandbox\] refused: [^"]*mount/);
    const calls = readFileSync(join(dir, 'state', 'llm-calls.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(calls).toHaveLength(2);
  }, 120_000);

  it('fails the step with the reason when no LLM provider is configured', async () => {
    const run = await runCli(['workflow', 'run', FIXTURE, '--state-dir', join(dir, 'state2')], {
      cwd: dir,
      env: { LLM_PROVIDER: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', OPENAI_BASE_URL: '' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no LLM client/);
  }, 60_000);
});
