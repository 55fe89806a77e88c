import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { describeProcessGroup, killStaleProcessGroup } from './processGroup.ts';

function startGroup() {
  const child = spawn('/bin/sh', ['-c', 'sleep 30 & sleep 30; wait'], { detached: true, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { pid: child.pid as number, exited };
}

describe('process groups', () => {
  it('kills a recorded group that is still running', async () => {
    const { pid, exited } = startGroup();
    const ref = describeProcessGroup(pid);
    expect(ref).toMatchObject({ pgid: pid });
    expect(killStaleProcessGroup(ref as NonNullable<typeof ref>)).toBe(true);
    await exited;
  });

  it('leaves a group alone when its leader is another process (a reused number)', async () => {
    const { pid, exited } = startGroup();
    const ref = describeProcessGroup(pid) as NonNullable<ReturnType<typeof describeProcessGroup>>;
    expect(killStaleProcessGroup({ ...ref, leaderStart: ref.leaderStart - 1 })).toBe(false);
    expect(killStaleProcessGroup({ ...ref, bootId: 'another-boot' })).toBe(false);
    process.kill(-pid, 'SIGKILL');
    await exited;
  });

  it('does nothing for a group that no longer exists', () => {
    expect(killStaleProcessGroup({ pgid: 999_999_999, leaderStart: 1, bootId: 'x' })).toBe(false);
    expect(describeProcessGroup(999_999_999)).toBeUndefined();
  });
});
