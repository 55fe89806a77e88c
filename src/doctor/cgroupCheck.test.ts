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
    expect(check?.fix).toBe("echo '+pids' > /sys/fs/cgroup/user.slice/cgroup.subtree_control   (as root)");
  });

  it('warns when the v2 subtree is not writable by the user', () => {
    const [check] = evaluateCgroups({
      v1: {},
      v2: { path: '/sys/fs/cgroup', writable: false, subtreeControl: ['memory', 'pids'] },
    });
    expect(check?.status).toBe('warn');
    expect(check?.detail).toContain('cgroup v2 /sys/fs/cgroup is not writable by this user');
    expect(check?.fix).toBe('run rvport as root, or under systemd-run --user --scope -p Delegate=yes');
  });

  it('passes a hybrid host whose v1 is read-only when the unified hierarchy delegates both', () => {
    const v2 = { path: '/sys/fs/cgroup/unified', writable: true, subtreeControl: ['memory', 'pids'] };
    expect(evaluateCgroups({ v1: v1(false, false), v2 })[0]?.status).toBe('ok');
  });

  it('names both hierarchies of a hybrid host where neither works, with one fix each', () => {
    const v2 = { path: '/sys/fs/cgroup/unified', writable: false, subtreeControl: [] };
    const [check] = evaluateCgroups({ v1: v1(false, undefined), v2 });
    expect(check?.status).toBe('warn');
    expect(check?.detail).toBe(
      'cgroup v1 memory (/sys/fs/cgroup/memory) is not writable, cgroup v1 pids is not mounted, cgroup v2 /sys/fs/cgroup/unified does not delegate memory and pids: the memory limit of sandbox commands will not apply, and the process limit falls back to a per-user limit',
    );
    expect(check?.fix?.split('; ')).toEqual([
      'mkdir -p /sys/fs/cgroup/pids && mount -t cgroup -o pids cgroup /sys/fs/cgroup/pids',
      "echo '+memory +pids' > /sys/fs/cgroup/unified/cgroup.subtree_control   (as root)",
      'run rvport as root, or under systemd-run --user --scope -p Delegate=yes',
    ]);
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
