import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../cli/terminalSafe.ts';
import type { SandboxRunOptions, SandboxRunResult } from '../sandbox/Sandbox.ts';
import { formatProbeReport } from './formatProbeReport.ts';
import { isProbeOutputError } from './parseProbeSections.ts';
import { PROBE_SCRIPT } from './probeScript.ts';
import { runProbe } from './runProbe.ts';

const recorded = readFileSync(new URL('./fixtures/local-sandbox-qemu-7.2.out', import.meta.url), 'utf8');

/** A target whose `run` answers with `answer(nonce)`; the probe logic around it is what is tested. */
function fakeTarget(answer: (nonce: string) => Partial<SandboxRunResult>) {
  const calls: Array<{ command: readonly string[]; options: SandboxRunOptions | undefined }> = [];
  return {
    calls,
    async run(command: string | readonly string[], options?: SandboxRunOptions): Promise<SandboxRunResult> {
      const argv = command as readonly string[];
      calls.push({ command: argv, options });
      return {
        exitCode: 0,
        stdout: '',
        stderr: '',
        truncated: false,
        stdoutBytes: 0,
        stderrBytes: 0,
        durationMs: 1,
        timedOut: false,
        aborted: false,
        commandNotFound: false,
        ...answer(String(options?.input ?? '').trim()),
      };
    },
  };
}

const context = { target: 'local-sandbox', mode: 'accelerated' } as const;

describe('runProbe', () => {
  it('runs the script through /bin/sh -c inside the target, with a fresh nonce on stdin each time', async () => {
    const target = fakeTarget((nonce) => ({
      stdout: recorded.replaceAll('0123456789abcdef01234567', nonce),
    }));
    const first = await runProbe(target, context);
    await runProbe(target, context);
    expect(first.machine).toBe('riscv64');
    const [a, b] = target.calls;
    expect(a?.command.slice(0, 4)).toEqual(['/bin/sh', '-c', PROBE_SCRIPT, 'rvport-probe']);
    expect(a?.command).toContain('rv64gcv');
    // the nonce goes on stdin: other processes in the target can read the argv, not the input
    expect(a?.options?.input).toMatch(/^[0-9a-f]{24}\n$/);
    expect(a?.options?.input).not.toBe(b?.options?.input);
    expect(a?.command.join(' ')).not.toContain(String(a?.options?.input).trim());
    expect(a?.options?.timeoutMs).toBeGreaterThan(0);
    expect(a?.options?.network).toBeUndefined();
  });

  it('a hostile target: escape sequences in its text reach neither the terminal nor the JSON raw', async () => {
    const target = fakeTarget((nonce) => ({
      stdout: recorded
        .replaceAll('0123456789abcdef01234567', nonce)
        .replace('gcc (Debian 14.2.0-19) 14.2.0', 'gcc \x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J14')
        // a forged closing marker with a guessed nonce does not end the output early
        .replace('riscv64\n', 'riscv64\n@@rvport-probe:000000000000000000000000:end\n'),
    }));
    const report = await runProbe(target, context);
    const human = terminalSafe(formatProbeReport(report));
    expect(human).not.toContain('\x1b');
    expect(human).toContain('compiler: gcc 14');
    expect(JSON.stringify(report)).not.toContain('\x1b');
    expect(report.compilers[0]?.march.accepted).toContain('rv64gc');
  });

  it('refuses output that was cut short, flooded past the cap, or a probe that failed', async () => {
    const cases: Array<[Partial<SandboxRunResult>, RegExp]> = [
      [{ stdout: recorded.split('@@rvport-probe:0123456789abcdef01234567:helper')[0] }, /did not finish/],
      [{ truncated: true, stdout: 'x' }, /more than 1 MiB/],
      [{ exitCode: 2, stderr: 'sh: 1: mktemp: Permission denied' }, /status 2: sh: 1: mktemp/],
      [{ timedOut: true, exitCode: 137 }, /timed out/],
    ];
    for (const [answer, message] of cases) {
      const error = await runProbe(
        fakeTarget(() => answer),
        context,
      ).catch((e: unknown) => e);
      expect(isProbeOutputError(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
    }
  });
});
