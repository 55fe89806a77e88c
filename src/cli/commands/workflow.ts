import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { EngineEvent, Workflow, WorkflowDefinition, WorkflowState } from '../../engine/index.ts';
import {
  DEFAULT_STATE_DIR,
  defineWorkflow,
  FileStateStore,
  isEngineError,
  isWorkflow,
  resetWorkflow,
  runWorkflow,
  toMermaid,
} from '../../engine/index.ts';
import { asAgentClient, createLlmClient, loadLlmConfig } from '../../llm/index.ts';
import type { CliContext } from '../CliContext.ts';
import { ExitCode } from '../exitCodes.ts';
import { registerWorkflowLoader, workflowFileUrl } from '../registerWorkflowLoader.ts';
import { UsageError } from '../UsageError.ts';

interface StateDirOption {
  stateDir: string;
  json?: boolean;
}

export function registerWorkflowCommand(program: Command, ctx: CliContext): void {
  const workflow = program
    .command('workflow')
    .description('run your own workflow files on the graph engine (checkpointed, resumable)');
  const stateDirOption = ['--state-dir <dir>', 'where run states are kept', DEFAULT_STATE_DIR] as const;

  workflow
    .command('run <file>')
    .description(
      'run a workflow file (.ts, .mts, .js, .mjs); resumes if a run with the same id was interrupted',
    )
    .option('--id <id>', 'run under this id instead of the workflow id')
    .option('--context <json>', 'JSON object merged over the initial context of a fresh run')
    .option(...stateDirOption)
    .option('--json', 'print the final state as JSON on stdout')
    .action(async (file: string, opts: StateDirOption & { id?: string; context?: string }) => {
      const abs = resolve(file);
      const wf = await loadWorkflowFile(abs);
      const context = opts.context === undefined ? undefined : parseContext(opts.context);
      ctx.exitCode = await runAndReport(ctx, wf, opts, {
        source: abs,
        ...(opts.id ? { id: opts.id } : {}),
        context,
      });
    });

  workflow
    .command('resume <id>')
    .description('continue an interrupted or failed run')
    .option(...stateDirOption)
    .option('--json', 'print the final state as JSON on stdout')
    .action(async (id: string, opts: StateDirOption) => {
      const state = await loadStateOrFail(id, opts.stateDir);
      if (!state.source)
        throw new UsageError(
          `run '${id}' does not record its workflow file; use 'workflow run FILE --id ${id}'`,
        );
      const wf = await loadWorkflowFile(state.source);
      ctx.exitCode = await runAndReport(ctx, wf, opts, { source: state.source, id });
    });

  workflow
    .command('reset <id>')
    .description('delete the saved state (and logs) of a run')
    .option(...stateDirOption)
    .action(async (id: string, opts: StateDirOption) => {
      const removed = await resetWorkflow(id, { stateDir: opts.stateDir });
      ctx.err(removed ? `reset '${id}'\n` : `no saved state for '${id}'\n`);
    });

  workflow
    .command('status [id]')
    .description('show one run, or list all runs in the state directory')
    .option(...stateDirOption)
    .option('--json', 'machine-readable output')
    .action(async (id: string | undefined, opts: StateDirOption) => {
      const store = new FileStateStore(opts.stateDir);
      if (id) {
        const state = await loadStateOrFail(id, opts.stateDir);
        ctx.out(opts.json ? `${JSON.stringify(state, null, 2)}\n` : describeState(state));
        return;
      }
      const ids = await store.list();
      const states: Array<WorkflowState | { workflowId: string; error: string }> = [];
      for (const each of ids) {
        try {
          states.push((await store.load(each)) as WorkflowState);
        } catch (error) {
          states.push({ workflowId: each, error: (error as Error).message });
        }
      }
      if (opts.json) {
        ctx.out(`${JSON.stringify(states.map(summary), null, 2)}\n`);
      } else if (states.length === 0) {
        ctx.out(`no runs in ${store.dir}\n`);
      } else {
        for (const s of states) {
          const line = 'status' in s ? oneLine(s) : `${s.workflowId}  unreadable: ${s.error}`;
          ctx.out(`${line}\n`);
        }
      }
    });

  workflow
    .command('graph <file>')
    .description('print a Mermaid diagram of the nodes and their declared targets')
    .action(async (file: string) => {
      ctx.out(toMermaid(await loadWorkflowFile(resolve(file))));
    });
}

async function runAndReport(
  ctx: CliContext,
  wf: Workflow,
  opts: StateDirOption,
  run: { source: string; id?: string; context?: Record<string, unknown> | undefined },
): Promise<number> {
  const llm = await agentLlm(opts.stateDir);
  const result = await runWorkflow(wf, {
    stateDir: opts.stateDir,
    ...(llm ? { services: { llm } } : {}),
    signal: ctx.signal,
    source: run.source,
    ...(run.id ? { id: run.id } : {}),
    ...(run.context ? { context: run.context } : {}),
    onEvent: (event) => progress(ctx, event),
  });
  if (opts.json) ctx.out(`${JSON.stringify(result.state, null, 2)}\n`);
  const id = result.state.workflowId;
  switch (result.outcome) {
    case 'completed':
      ctx.err(`workflow '${id}' completed in ${result.state.steps} steps\n`);
      return ExitCode.Success;
    case 'already-completed':
      ctx.err(`workflow '${id}' already completed; 'rvport workflow reset ${id}' to run it again\n`);
      return ExitCode.Success;
    case 'interrupted':
      ctx.err(`workflow '${id}' interrupted at '${result.state.currentNode}'; run it again to resume\n`);
      return ExitCode.Interrupted;
    case 'failed':
      ctx.err(
        `workflow '${id}' failed at '${result.state.currentNode}': ${result.state.error?.message}\n` +
          `state: ${new FileStateStore(opts.stateDir).locate(id)} (run again to resume there)\n`,
      );
      return ExitCode.Failure;
  }
}

/**
 * The LLM client AgentNode steps use when their workflow passes none: rvport's LLM layer with the
 * same configuration as a port (environment, RVPORT_HOME/config.json), calls logged next to the
 * run states. None when no provider is configured: an AgentNode then fails saying so.
 */
async function agentLlm(stateDir: string) {
  const config = await loadLlmConfig();
  if (!config.provider) return undefined;
  return asAgentClient(createLlmClient({ config, callLogPath: join(stateDir, 'llm-calls.jsonl') }));
}

function progress(ctx: CliContext, event: EngineEvent): void {
  switch (event.type) {
    case 'run:start':
      ctx.err(`${event.resumed ? 'resuming' : 'starting'} '${event.workflowId}' at '${event.node}'\n`);
      break;
    case 'node:end':
      ctx.err(`  ✓ ${event.node} (${Math.round(event.durationMs)} ms)\n`);
      break;
    case 'node:retry':
      ctx.err(`  ↻ ${event.node}: retry in ${Math.round(event.delayMs / 1000)} s (${event.reason})\n`);
      break;
    case 'node:error':
      ctx.err(`  ✗ ${event.node}: ${event.message}${event.asData ? ' (routed as data)' : ''}\n`);
      break;
    default:
      break;
  }
}

/** Imports a workflow file; its default export (or `workflow` export) is a workflow or a definition. */
export async function loadWorkflowFile(file: string): Promise<Workflow> {
  if (!existsSync(file)) throw new UsageError(`workflow file not found: ${file}`);
  if (!/\.m?[jt]s$/.test(file)) throw new UsageError(`workflow file must be .ts, .mts, .js or .mjs: ${file}`);
  await registerWorkflowLoader();
  let mod: Record<string, unknown>;
  try {
    mod = (await import(workflowFileUrl(file))) as Record<string, unknown>;
  } catch (error) {
    if (isEngineError(error)) throw new UsageError(`${file}: ${(error as Error).message}`);
    throw new UsageError(`cannot load ${file}: ${(error as Error).message}`);
  }
  const exported = mod.default ?? mod.workflow;
  if (isWorkflow(exported)) return exported;
  if (exported && typeof exported === 'object' && 'nodes' in exported) {
    try {
      return defineWorkflow(exported as WorkflowDefinition);
    } catch (error) {
      throw new UsageError(`${file}: ${(error as Error).message}`);
    }
  }
  throw new UsageError(`${file} must export a workflow as default (export default defineWorkflow({ … }))`);
}

function parseContext(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--context is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError('--context must be a JSON object');
  }
  return value as Record<string, unknown>;
}

async function loadStateOrFail(id: string, stateDir: string): Promise<WorkflowState> {
  const store = new FileStateStore(stateDir);
  const state = await store.load(id);
  if (!state) throw new UsageError(`no saved state for '${id}' in ${store.dir}`);
  return state;
}

function summary(s: WorkflowState | { workflowId: string; error: string }) {
  if (!('status' in s)) return s;
  const st = s as WorkflowState;
  return {
    workflowId: st.workflowId,
    status: st.status,
    currentNode: st.currentNode,
    steps: st.steps,
    updatedAt: st.updatedAt,
    error: st.error,
  };
}

function oneLine(s: WorkflowState): string {
  const where = s.status === 'completed' ? '' : ` at ${s.currentNode}`;
  return `${s.workflowId}  ${s.status}${where}  ${s.steps} steps  ${s.updatedAt}`;
}

function describeState(s: WorkflowState): string {
  const lines = [
    `workflow:  ${s.workflowId}`,
    `status:    ${s.status}`,
    `node:      ${s.currentNode ?? '(end)'}`,
    `steps:     ${s.steps}`,
    `started:   ${s.startedAt}`,
    `updated:   ${s.updatedAt}`,
  ];
  if (s.source) lines.push(`source:    ${s.source}`);
  if (s.error) lines.push(`error:     [${s.error.code}] ${s.error.message}`);
  const recent = s.trail
    .slice(-10)
    .map((r) => `  #${r.step} ${r.node} → ${r.next ?? '-'} (${r.outcome}, ${r.durationMs} ms)`);
  if (recent.length) lines.push('recent steps:', ...recent);
  return `${lines.join('\n')}\n`;
}
