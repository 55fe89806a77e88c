import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineWorkflow } from '../defineWorkflow.ts';
import { END } from '../END.ts';
import { runWorkflow } from '../runWorkflow.ts';
import { MemoryStateStore } from '../stores/MemoryStateStore.ts';
import { SlashCommandNode, type SlashCommandResult } from './SlashCommandNode.ts';

const dir = mkdtempSync(join(tmpdir(), 'rvport-claude-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fake `claude` executable: records its arguments and answers like `claude -p --output-format json`. */
function fakeClaude(body: string): string {
  const bin = join(dir, 'bin');
  const file = join(bin, 'claude');
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(bin, { recursive: true });
  writeFileSync(file, `#!/bin/sh\nprintf '%s\\n' "$@" > ${join(dir, 'args')}\n${body}\n`);
  chmodSync(file, 0o755);
  return bin;
}

function workflow(options: Partial<Parameters<typeof SlashCommandNode>[0]> = {}) {
  return defineWorkflow({
    id: 'slash',
    initialContext: { pr: 42 },
    nodes: {
      review: SlashCommandNode<{ pr: number; review?: unknown }>({
        command: 'review',
        args: (s) => `PR ${s.context.pr}`,
        model: 'sonnet',
        then: END,
        ...options,
      }),
    },
  });
}

describe('SlashCommandNode', () => {
  it('runs the slash command through the claude CLI found on PATH and stores its result', async () => {
    const bin = fakeClaude(
      `echo '{"type":"result","subtype":"success","is_error":false,"result":"LGTM","session_id":"s-1","total_cost_usd":0.012}'`,
    );
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      const result = await runWorkflow(workflow(), { store: new MemoryStateStore(), logDir: dir });
      expect(result.outcome).toBe('completed');
      expect(result.state.context.review as SlashCommandResult).toMatchObject({
        exitCode: 0,
        result: 'LGTM',
        sessionId: 's-1',
        costUsd: 0.012,
      });
      expect(readFileSync(join(dir, 'args'), 'utf8').split('\n')).toEqual([
        '-p',
        '/review PR 42',
        '--output-format',
        'json',
        '--model',
        'sonnet',
        '',
      ]);
      expect(result.state.history.map((m) => [m.role, m.content])).toEqual([
        ['user', '/review PR 42'],
        ['assistant', 'LGTM'],
      ]);
    } finally {
      process.env.PATH = path;
    }
  });

  it('fails on an error result, with the message', async () => {
    const bin = fakeClaude(`echo '{"type":"result","is_error":true,"result":"unknown command"}'; exit 1`);
    const result = await runWorkflow(workflow({ binary: join(bin, 'claude') }), {
      store: new MemoryStateStore(),
      logDir: dir,
    });
    expect(result.outcome).toBe('failed');
    expect(result.state.error?.message).toMatch(/\/review PR 42 failed \(exit 1\): unknown command/);
  });

  it('says clearly when the CLI is not installed', async () => {
    const result = await runWorkflow(workflow({ binary: join(dir, 'no-such-claude') }), {
      store: new MemoryStateStore(),
      logDir: dir,
    });
    expect(result.state.error?.code).toBe('claude-not-found');
    expect(result.state.error?.message).toMatch(/RVPORT_CLAUDE_BIN/);
  });
});
