import { describe, expect, it } from 'vitest';
import { evaluateCgroups } from './cgroupCheck.ts';

const v1 = (memory: boolean | undefined, pids: boolean | undefined) => ({
  ...(memory === undefined ? {} : { memory: { path: '/sys/fs/cgroup/memory', writable: memory } }),
  ...(pids === undefined ? {} : { pids: { path: '/sys/fs/cgroup/pids', writable: pids } }),
});

describe('evaluateCgroups', () => {
  it('passes writable cgroup v1 memory and pids', () => {
    expect(evaluateCgroups({ v1: v1(true, true) })[0]).toMatchObject({ id: 'cgroups', status: 'ok' });
  });

  it('passes a cgroup v2 subtree that delegates memory and pids', () => {
    const [check] = evaluateCgroups({
      v1: {},
      v2: { path: '/sys/fs/cgroup/user.slice', writable: true, subtreeControl: ['cpu', 'memory', 'pids'] },
    });
    expect(check?.status).toBe('ok');
  });

  it('warns, naming the controller and the limits that will not apply, when v2 lacks one', () => {
    const [check] = evaluateCgroups({
      v1: {},
      v2: { path: '/sys/fs/cgroup/user.slice', writable: true, subtreeControl: ['memory'] },
    });
    expect(check?.status).toBe('warn');
    expect(check?.detail).toContain('does not delegate pids');
    expect(check?.detail).toContain('memory limit of sandbox commands will not apply');
    expect(check?.fix).toContain("echo '+pids' > /sys/fs/cgroup/user.slice/cgroup.subtree_control");
  });

  it('warns when the v2 subtree is not writable by the user', () => {
    const [check] = evaluateCgroups({
      v1: {},
      v2: { path: '/sys/fs/cgroup', writable: false, subtreeControl: ['memory', 'pids'] },
    });
    expect(check?.status).toBe('warn');
    expect(check?.detail).toContain('not writable');
  });

  it('warns with the mount command for a v1 controller that is not mounted', () => {
    const [check] = evaluateCgroups({ v1: v1(true, undefined) });
    expect(check?.status).toBe('warn');
    expect(check?.detail).toContain('cgroup v1 pids is not mounted');
    expect(check?.fix).toBe(
      'mkdir -p /sys/fs/cgroup/pids && mount -t cgroup -o pids cgroup /sys/fs/cgroup/pids',
    );
  });

  it('warns for a read-only v1 controller and for no cgroups at all', () => {
    expect(evaluateCgroups({ v1: v1(false, true) })[0]?.detail).toContain(
      'cgroup v1 memory (/sys/fs/cgroup/memory) is not writable',
    );
    const [none] = evaluateCgroups({ v1: {} });
    expect(none?.status).toBe('warn');
    expect(none?.detail).toMatch(/memory is not mounted, cgroup v1 pids is not mounted/);
  });
});
