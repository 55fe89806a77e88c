import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess } from './runProcess.ts';

const dir = mkdtempSync(join(tmpdir(), 'rvport-proc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Running, not a zombie waiting for a parent that does not reap (PID 1 in some containers). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

describe('runProcess', () => {
  it('captures exit code, stdout and stderr of a shell command', async () => {
    const r = await runProcess({ command: 'echo out; echo err >&2; exit 3' });
    expect(r).toMatchObject({
      exitCode: 3,
      stdout: 'out\n',
      stderr: 'err\n',
      timedOut: false,
      truncated: false,
    });
  });

  it('runs an argv without a shell, with cwd, env and input', async () => {
    const r = await runProcess({
      command: ['sh', '-c', 'pwd; echo "$GREETING"; cat'],
      cwd: dir,
      env: { GREETING: 'hi there' },
      input: 'from stdin',
    });
    expect(r.stdout).toBe(`${dir}\nhi there\nfrom stdin`);
  });

  it('keeps only the tail of a 300 MB output, writes all of it to the log, and does not hang', async () => {
    const logFile = join(dir, 'big.log');
    const before = process.memoryUsage().rss;
    const r = await runProcess({
      command: 'head -c 314572800 /dev/zero | tr "\\0" "x"; echo; echo THE-END',
      captureBytes: 4096,
      logFile,
    });
    expect(r.exitCode).toBe(0);
    expect(r.truncated).toBe(true);
    expect(r.stdoutBytes).toBe(314_572_800 + 9);
    expect(r.stdout.endsWith('THE-END\n')).toBe(true);
    expect(r.stdout.length).toBeLessThan(4200);
    // memory stays far below the size of the output (GC timing makes the exact figure vary)
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
    expect(statSync(logFile).size).toBe(314_572_800 + 9);
    rmSync(logFile);
  });

  it('kills the whole process group on time-out', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const r = await runProcess({ command: `sleep 30 & echo $! > ${pidFile}; wait`, timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expect(r.exitCode).toBe(137);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isRunning(grandchild)).toBe(false);
  });

  it('stops on abort', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const r = await runProcess({ command: 'sleep 30', signal: controller.signal });
    expect(r.aborted).toBe(true);
    expect(r.durationMs).toBeLessThan(5000);
  });

  it('does not wait for a background child that keeps the pipes open', async () => {
    const r = await runProcess({ command: 'sleep 30 & echo started' });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('started\n');
    expect(r.durationMs).toBeLessThan(5000);
  });

  it('rejects when the program does not exist', async () => {
    await expect(runProcess({ command: ['/nonexistent/program'] })).rejects.toThrow(/ENOENT/);
  });
});
