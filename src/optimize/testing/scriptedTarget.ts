import type { SandboxRunOptions, SandboxRunResult } from '../../sandbox/index.ts';

/** What a scripted target answers to one command: exit status and output. */
export interface ScriptedAnswer {
  exitCode?: number;
  stdout?: string;
  durationMs?: number;
}

/**
 * A stand-in for the sandbox's `run` in unit tests of performance mode's logic: every command is
 * recorded, and `answer` decides what it prints. Real runs are in the integration tests.
 */
export function scriptedTarget(answer: (command: string) => ScriptedAnswer) {
  const commands: { command: string; options?: SandboxRunOptions }[] = [];
  const written: { path: string; data: string }[] = [];
  return {
    commands,
    written,
    async writeFile(path: string, data: string | Buffer): Promise<void> {
      written.push({ path, data: String(data) });
    },
    mode: 'emulated' as const,
    id: 'scripted',
    async copyOut(): Promise<void> {
      throw new Error('no files in a scripted target');
    },
    async run(command: string | readonly string[], options?: SandboxRunOptions): Promise<SandboxRunResult> {
      const text = typeof command === 'string' ? command : command.join(' ');
      commands.push({ command: text, ...(options ? { options } : {}) });
      const a = answer(text);
      const stdout = a.stdout ?? '';
      return {
        exitCode: a.exitCode ?? 0,
        stdout,
        stderr: '',
        truncated: false,
        stdoutBytes: stdout.length,
        stderrBytes: 0,
        durationMs: a.durationMs ?? 10,
        timedOut: false,
        aborted: false,
        commandNotFound: false,
      };
    },
  };
}
