import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmClient, type LlmConfigFile, resolveLlmConfig } from '../../src/llm/index.ts';
import { fixNode } from '../../src/port/graph/nodes/fix.ts';
import { renderReport } from '../../src/port/outputs/renderReport.ts';
import { applyPatches, PatchError } from '../../src/port/patches/sourcePatches.ts';
import type { BuildPlan, PortState } from '../../src/port/state/PortState.ts';
import { FakeSandbox, fakePortServices, runPortNode } from '../../src/port/testing/fakePortServices.ts';
import { anError, portState } from '../../src/port/testing/portStateFixture.ts';
import { runProcess } from '../../src/process/runProcess.ts';
import type { SandboxRunOptions, SandboxRunResult } from '../../src/sandbox/Sandbox.ts';
import { FakeLlmServer, type FakeReply, type RecordedRequest } from '../llm/fakeLlmServer.ts';

// The fixer's answers are hostile. A fake OpenAI-compatible server on 127.0.0.1 plays a fixer
// that asks to "inspect" with commands that run programs (GNU sed's `e`, git grep -O, tar's
// checkpoint action under an abbreviated option name) and proposes a diff that smuggles a
// symbolic link past a hunk header that lies about its length. The inspection commands run for
// real, on the host, in the temporary source tree (so a guard that let one through would create
// its canary); each attack is first shown to work when run without the guard.

const PLAN: BuildPlan = {
  buildSystem: 'make',
  dir: '.',
  phases: [{ name: 'build', commands: ['make'] }],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};
const PRICES: LlmConfigFile = {
  model: 'guard-test-model',
  prices: { 'guard-test-model': { input: 1, output: 1 } },
};

let root: string;
let canaries: string;
const server = new FakeLlmServer();

const canary = (name: string) => join(canaries, name);
const inspections = () => [
  `sed -n -e 1p -e 'e touch ${canary('sed')}' main.c`,
  `git grep -O'touch ${canary('git-grep')}' -e int`,
  `tar -tf src.tar --checkpoint-act=exec='touch ${canary('tar')}' --checkpoint=1`,
  'grep -n strnlen main.c',
];
/** A hunk that says it has six new lines; git apply --recount stops at the next `diff --git`. */
const smuggledLink = () => `diff --git a/main.c b/main.c
--- a/main.c
+++ b/main.c
@@ -1,3 +1,8 @@
-static int strnlen(const char *s, int n);
+static int own_strnlen(const char *s, int n);
 int main(void) { return 0; }
diff --git a/cc b/cc
new file mode 120000
--- /dev/null
+++ b/cc
@@ -0,0 +1 @@
+${canaries}
`;
/** The honest fix, with the loose counts models write. */
const LOOSE_FIX = `--- a/main.c
+++ b/main.c
@@ -1,7 +1,7 @@
-static int strnlen(const char *s, int n);
+static int own_strnlen(const char *s, int n);
 int main(void) { return 0; }
`;

/** Runs commands for real in the instance's source folder, on the host: what gets past the guard runs. */
class HostShellSandbox extends FakeSandbox {
  override async run(
    command: string | readonly string[],
    options?: SandboxRunOptions,
  ): Promise<SandboxRunResult> {
    const line = typeof command === 'string' ? command : command.join(' ');
    // the fresh copy's clearing of the install tree names the sandbox's /build: not a host path
    if (line === 'rm -rf -- /build/dest') {
      const cleared = await super.run(command, options);
      this.commands.pop();
      return cleared;
    }
    this.commands.push(line);
    const r = await runProcess({
      command,
      cwd: join(this.workspace, 'src'),
      ...(options?.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    return { ...r, commandNotFound: r.exitCode === 127 };
  }
}

const schemaOf = (r: RecordedRequest) =>
  ((r.body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ??
    '') as string;
const json = (value: unknown): FakeReply => ({
  text: JSON.stringify(value),
  usage: { input: 100, output: 10 },
});

async function sourceTree(): Promise<string> {
  const dir = mkdtempSync(join(root, 'src-'));
  writeFileSync(
    join(dir, 'main.c'),
    'static int strnlen(const char *s, int n);\nint main(void) { return 0; }\n',
  );
  writeFileSync(join(dir, 'Makefile'), 'all:\n\tcc -o demo main.c\n');
  for (const argv of [
    ['git', 'init', '-q'],
    ['git', 'add', '-A'],
    ['tar', '-cf', 'src.tar', 'main.c', 'Makefile'],
  ]) {
    const r = await runProcess({ command: argv, cwd: dir });
    expect(r.exitCode, r.stderr).toBe(0);
  }
  return dir;
}

function failedState(dir: string): PortState {
  return portState({
    source: { spec: dir, name: 'demo', dir },
    plan: PLAN,
    attemptCount: 1,
    buildStatus: 'FAILED',
    errors: [
      {
        ...anError('COMPILATION', "main.c:1:12: error: conflicting types for 'strnlen'"),
        phase: 'build',
        command: 'make',
        progress: 100,
      },
    ],
  });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'rvport-guards-'));
  canaries = mkdtempSync(join(root, 'canaries-'));
  let fixes = 0;
  await server
    .respondWith((request) => {
      if (schemaOf(request) === 'inspection')
        return json({ reasoning: 'look at the declaration', commands: inspections() });
      if (schemaOf(request) === 'fix') {
        fixes++;
        return json({
          diagnosis: "main.c declares its own strnlen, which clashes with glibc's",
          summary: 'rename the private strnlen',
          patch: fixes === 1 ? smuggledLink() : LOOSE_FIX,
          commands: [],
          packages: [],
          env: [],
        });
      }
      return { status: 400, message: 'not scripted' };
    })
    .start();
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('hostile fixer answers against the guards', () => {
  it('the attacks are real: run without the guard, each command creates its canary and git links the file', async () => {
    const dir = await sourceTree();
    const control = mkdtempSync(join(root, 'control-'));
    for (const command of inspections().slice(0, 3)) {
      const r = await runProcess({ command: command.replaceAll(canaries, control), cwd: dir });
      expect(r.exitCode, `${command}: ${r.stderr}`).toBe(0);
    }
    expect(readdirSync(control).sort()).toEqual(['git-grep', 'sed', 'tar']);
    const applied = await runProcess({
      command: ['git', 'apply', '--recount', '-'],
      cwd: dir,
      input: smuggledLink(),
    });
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(lstatSync(join(dir, 'cc')).isSymbolicLink()).toBe(true);
  });

  it('refuses the executing inspections and the smuggled link, runs the rest, and records every refusal in the report', async () => {
    const dir = await sourceTree();
    const sandbox = new HostShellSandbox();
    const config = resolveLlmConfig({
      env: { LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openAiBaseUrl },
      file: PRICES,
      overrides: { maxRetries: 0 },
    });
    const llm = createLlmClient({ config, callLogPath: join(root, 'llm-calls.jsonl') });
    const state = failedState(dir);

    const update = await runPortNode(fixNode, state, fakePortServices(sandbox, { llm }));

    expect(readdirSync(canaries)).toEqual([]);
    expect(sandbox.commands).toEqual(['grep -n strnlen main.c']);
    const refused = update.refusedCommands ?? [];
    expect(refused.map((r) => [r.command, r.reason])).toEqual([
      [inspections()[0], expect.stringMatching(/"e" is not a print-only command/)],
      [inspections()[1], expect.stringMatching(/git grep: option -O is not allowed/)],
      [inspections()[2], expect.stringMatching(/option --checkpoint-act is not allowed/)],
      ['(patch)', expect.stringMatching(/symbolic link/)],
    ]);
    // No link anywhere: not in the source, not in the instance's copy of it.
    expect(existsSync(join(dir, 'cc'))).toBe(false);
    expect(existsSync(join(sandbox.workspace, 'src', 'cc'))).toBe(false);

    // Told why, the fixer's second answer is the honest fix with loose counts: accepted, recounted.
    expect(update.buildStatus).toBe('FIXING');
    expect(update.patches?.map((p) => p.name)).toEqual(['0001-rename-the-private-strnlen.patch']);
    expect(update.patches?.[0]?.diff).toContain('@@ -1,2 +1,2 @@');
    // The accepted patch is what the next build applies to a fresh copy: it applies, exactly.
    const fresh = await sourceTree();
    await applyPatches(fresh, update.patches ?? []);
    expect(readFileSync(join(fresh, 'main.c'), 'utf8')).toContain('static int own_strnlen(');
    const fixPrompts = server.requests.filter((r) => schemaOf(r) === 'fix');
    expect(JSON.stringify(fixPrompts.at(-1)?.body.messages)).toContain('rvport refused that fix');

    const report = renderReport({ ...state, ...update });
    expect(report).toContain('## Refused LLM commands');
    expect(report).toMatch(/\(patch\).*symbolic link/);
    expect(report).toContain('git grep: option -O is not allowed');
  });

  it('a smuggled link in a patch from the cache or a resumed state is refused before git sees it', async () => {
    const dir = await sourceTree();
    const hostile = {
      name: '0001-rename.patch',
      diff: smuggledLink().replace('@@ -1,3 +1,8 @@', '@@ -1,2 +1,2 @@'),
    };
    // With honest counts the link is still there, after the first file: refused by its mode.
    await expect(applyPatches(dir, [hostile])).rejects.toThrow(PatchError);
    await expect(applyPatches(dir, [hostile])).rejects.toThrow(
      /patch 0001-rename\.patch is refused: .*symbolic link/,
    );
    const lying = { name: '0001-rename.patch', diff: smuggledLink() };
    await expect(applyPatches(dir, [lying])).rejects.toThrow(/announces more lines/);
    expect(existsSync(join(dir, 'cc'))).toBe(false);
    expect(readdirSync(canaries)).toEqual([]);
  });
});
