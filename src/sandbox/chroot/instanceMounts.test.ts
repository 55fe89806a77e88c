import { describe, expect, it } from 'vitest';
import { instanceCommand, instanceEnterScript, KEPT_CAPABILITIES, shellQuote } from './instanceMounts.ts';

const mounts = {
  lowerDirs: ['/h/images/accel/tree', '/h/images/rootfs/tree'],
  upperDir: '/h/i/upper',
  workDir: '/h/i/work',
  mergedDir: '/h/i/merged',
  workspace: '/h/i/build',
  nativeTree: '/h/images/tools/tree',
  network: false,
};

describe('instanceEnterScript', () => {
  const script = instanceEnterScript(mounts);

  it('stacks the layers topmost first and mounts /native and /proc/sys read-only', () => {
    expect(script).toContain(
      'lowerdir=/h/images/accel/tree:/h/images/rootfs/tree,upperdir=/h/i/upper,workdir=/h/i/work',
    );
    expect(script).toContain(
      'mount --bind /h/images/tools/tree /h/i/merged/native\nmount -o remount,bind,ro /h/i/merged/native',
    );
    expect(script).toContain('mount -o remount,bind,ro /h/i/merged/proc/sys');
    expect(script).toContain('mount --bind /h/i/build /h/i/merged/build');
  });

  it('drops the capabilities that reach the host', () => {
    const setpriv = script.split('\n').find((l) => l.includes('setpriv')) ?? '';
    expect(setpriv).toContain('--bounding-set=-all,+chown,');
    for (const cap of ['sys_admin', 'sys_chroot', 'mknod', 'sys_module', 'sys_rawio']) {
      expect(KEPT_CAPABILITIES).not.toContain(cap);
      expect(setpriv).not.toContain(`+${cap}`);
    }
  });

  it('leaves /native out in emulated mode and binds resolv.conf only with network', () => {
    const emulated = instanceEnterScript({ ...mounts, nativeTree: undefined });
    expect(emulated).not.toContain('/native');
    expect(emulated).not.toContain('resolv.conf');
    expect(instanceEnterScript({ ...mounts, network: true })).toContain('mount --bind /etc/resolv.conf');
  });

  it('refuses paths that overlay options cannot carry', () => {
    expect(() => instanceEnterScript({ ...mounts, upperDir: '/h/a,b/upper' })).toThrow(/overlay/);
  });
});

describe('instanceCommand', () => {
  it('uses a network namespace unless network is asked for, and dies with its parent', () => {
    const off = instanceCommand(mounts, '/build', ['make', '-j2']);
    expect(off.slice(0, 4)).toEqual(['setpriv', '--pdeathsig', 'KILL', 'unshare']);
    expect(off).toContain('--net');
    expect(off).toContain('--kill-child');
    expect(off.slice(-4)).toEqual(['rvport-sandbox', '/build', 'make', '-j2']);
    expect(instanceCommand({ ...mounts, network: true }, '/build', ['true'])).not.toContain('--net');
  });

  it('quotes what the shell would split', () => {
    expect(shellQuote('/plain/path')).toBe('/plain/path');
    expect(shellQuote("it's here")).toBe(`'it'\\''s here'`);
  });
});
