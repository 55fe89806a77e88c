import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { NodeDefinition, NodeRunContext } from '../../engine/index.ts';
import { createOfflineLlmClient } from '../../llm/index.ts';
import type {
  Sandbox,
  SandboxLimitHit,
  SandboxRunOptions,
  SandboxRunResult,
  SandboxSnapshot,
} from '../../sandbox/index.ts';
import type { PortServices } from '../run/PortServices.ts';
import type { PortState } from '../state/PortState.ts';

/** What a scripted sandbox command answers: exit code and output. */
export type FakeCommandResult = {
  exitCode: number;
  stdout?: string;
  stderr?: string;
  timedOut?: boolean;
  limit?: SandboxLimitHit;
};

/**
 * A sandbox for unit tests of node logic: commands are answered by a script, the workspace is a
 * real temporary folder (so source copies and patches are real), snapshots are recorded.
 */
export class FakeSandbox implements Sandbox {
  readonly id = 'fake';
  readonly mode = 'accelerated' as const;
  readonly workspace: string;
  readonly commands: string[] = [];
  readonly rollbacks: string[] = [];
  private snapshots = 0;

  constructor(private readonly script: (command: string) => FakeCommandResult = () => ({ exitCode: 0 })) {
    this.workspace = mkdtempSync(join(tmpdir(), 'rvport-fake-sandbox-'));
  }

  async run(command: string | readonly string[], _options?: SandboxRunOptions): Promise<SandboxRunResult> {
    const line = typeof command === 'string' ? command : command.join(' ');
    this.commands.push(line);
    const r = this.script(line);
    return {
      exitCode: r.exitCode,
      stdout: r.stdout ?? '',
      stderr: r.stderr ?? '',
      stdoutBytes: (r.stdout ?? '').length,
      stderrBytes: (r.stderr ?? '').length,
      durationMs: 1,
      timedOut: r.timedOut ?? false,
      aborted: false,
      commandNotFound: false,
      truncated: false,
      ...(r.limit ? { limit: r.limit } : {}),
    };
  }
  async readFile(): Promise<Buffer> {
    throw new Error('not in the fake sandbox');
  }
  async writeFile(): Promise<void> {}
  /** Copies for real into the workspace folder (paths under /build), as the real one would. */
  async copyIn(hostPath: string, sandboxPath: string): Promise<void> {
    if (!sandboxPath.startsWith('/build/')) return;
    const target = join(this.workspace, sandboxPath.slice('/build/'.length));
    rmSync(target, { recursive: true, force: true });
    mkdirSync(dirname(target), { recursive: true });
    cpSync(hostPath, target, { recursive: true, verbatimSymlinks: true });
  }
  async copyOut(): Promise<void> {}
  async installPackages(packages: readonly string[]): Promise<SandboxRunResult> {
    return this.run(`apt-get install ${packages.join(' ')}`);
  }
  async snapshot(): Promise<SandboxSnapshot> {
    this.snapshots++;
    return { id: `snap-${this.snapshots}`, createdAt: '2026-01-01T00:00:00.000Z' };
  }
  async rollback(snapshot: SandboxSnapshot): Promise<void> {
    this.rollbacks.push(snapshot.id);
  }
  async destroy(): Promise<void> {}
}

/** Port services around a fake sandbox, with an offline LLM unless one is given. */
export function fakePortServices(sandbox: FakeSandbox, overrides: Partial<PortServices> = {}): PortServices {
  const home = mkdtempSync(join(tmpdir(), 'rvport-fake-home-'));
  mkdirSync(join(home, 'out'), { recursive: true });
  const buildLog = join(home, 'out', 'build.log');
  writeFileSync(buildLog, '');
  return {
    home,
    outDir: join(home, 'out'),
    sourcesDir: join(home, 'sources'),
    buildLog,
    sandbox: {
      get: async () => sandbox,
      discard: async () => {},
      imageId: 'fake-image',
      suite: 'trixie',
    },
    contents: async () => null,
    heuristics: [],
    commandTimeoutMs: 60_000,
    testTimeoutMs: 60_000,
    progress: () => {},
    llm: createOfflineLlmClient('tests'),
    suite: 'trixie',
    ...overrides,
  };
}

/** Runs one port node as the engine would, and returns its update of the state. */
export async function runPortNode(
  node: NodeDefinition<PortState>,
  state: PortState,
  services: PortServices,
  /** The in-flight checkpoint the node finds, and where the node's own checkpoints go. */
  inFlight?: { value?: unknown; saved?: unknown[] },
): Promise<Partial<PortState>> {
  const ctx: NodeRunContext = {
    node: 'test',
    workflowId: 'test',
    signal: new AbortController().signal,
    clock: { now: () => Date.now(), sleep: async () => {} } as unknown as NodeRunContext['clock'],
    logDir: services.outDir,
    step: 1,
    remainingSteps: 100,
    emit: () => {},
    inFlight: inFlight?.value,
    saveInFlight: async (value) => {
      inFlight?.saved?.push(structuredClone(value));
    },
    services: { port: services },
  };
  const run = (node as { run?: (s: unknown, c: NodeRunContext) => Promise<{ context?: Partial<PortState> }> })
    .run;
  if (!run) throw new Error('not a runnable node');
  const update = await run({ context: state }, ctx);
  return update.context ?? {};
}
