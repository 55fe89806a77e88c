import { describe, expect, it } from 'vitest';
import { shellQuote } from '../../process/shellQuote.ts';
import { instanceCommand, instanceEnterScript, KEPT_CAPABILITIES } from './instanceMounts.ts';

const mounts = {
  enterProgram: '/h/bin/enter-0123',
  viewRoots: ['/h/images', '/h/i'],
  ids: { uid: { start: 100000, count: 65536 }, gid: { start: 200000, count: 65536 } },
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
    // the sandbox folder is seen at /tmp while the instance is assembled
    expect(script).toContain(
      'lowerdir=/tmp/v0/accel/tree:/tmp/v0/rootfs/tree,upperdir=/tmp/v1/upper,workdir=/tmp/v1/work',
    );
    expect(script).toContain(
      'mount --bind /tmp/v0/tools/tree /tmp/v1/merged/native\nmount -o remount,bind,ro,nosuid,nodev /tmp/v1/merged/native',
    );
    expect(script).toContain('mount -o remount,bind,ro /tmp/v1/merged/proc/sys');
    expect(script).toContain('mount -o remount,bind,nosuid,nodev /tmp/v1/merged/build');
    expect(script).toMatch(/size=4g tmp \/tmp\/v1\/merged\/tmp/);
    expect(script).toMatch(/size=512m shm \/tmp\/v1\/merged\/dev\/shm/);
  });

  it('closes the descriptors of the view roots before the command runs', () => {
    const lines = script.split('\n');
    const close = lines.indexOf('exec 3<&- 4<&-');
    expect(close).toBeGreaterThan(0);
    expect(lines.findIndex((l) => l.includes('/proc/self/fd/9'))).toBeGreaterThan(close);
  });

  it('binds the image views read-only and only the instance folder writable', () => {
    expect(script).toContain('mount -o remount,bind,ro,nosuid,nodev /tmp/v0');
    expect(script).not.toContain('remount,bind,ro,nosuid,nodev /tmp/v1\n');
  });

  it('refuses an instance whose assembly paths the build made links', () => {
    const check = script.split('\n').find((l) => l.includes('is a link')) ?? '';
    for (const path of ['proc', 'dev', 'tmp', 'build', 'native']) expect(check).toContain(` ${path}`);
    expect(instanceEnterScript({ ...mounts, network: true })).toMatch(/for p in .* etc\/resolv\.conf; do/);
    expect(script.indexOf('is a link')).toBeLessThan(script.indexOf('mount -t proc'));
  });

  it('ends in the host-side entry program with only the kept capabilities', () => {
    const last = script.trim().split('\n').at(-1) ?? '';
    expect(last).toBe('exec /proc/self/fd/9 /tmp/v1/merged "$cwd" 0,1,2,3,4,5,6,7,31,10,29 "$@"');
    for (const cap of ['sys_admin', 'sys_chroot', 'mknod', 'sys_module', 'sys_rawio']) {
      expect(KEPT_CAPABILITIES).not.toContain(cap);
    }
    // nothing of the instance runs before the entry program: no program is named inside the root
    expect(script).not.toMatch(/unshare --root|\/usr\/bin\/setpriv|\/usr\/bin\/env/);
  });

  it('leaves /native out in emulated mode and binds resolv.conf only with network', () => {
    const emulated = instanceEnterScript({ ...mounts, nativeTree: undefined });
    expect(emulated).not.toContain('/native');
    expect(emulated).not.toContain('resolv.conf');
    expect(instanceEnterScript({ ...mounts, network: true })).toContain('mount --bind /etc/resolv.conf');
    expect(instanceEnterScript({ ...mounts, network: true })).toContain(
      'remount,bind,ro /tmp/v1/merged/etc/resolv.conf',
    );
  });

  it('refuses paths that overlay options cannot carry', () => {
    expect(() => instanceEnterScript({ ...mounts, upperDir: '/h/a,b/upper' })).toThrow(/overlay/);
  });
});

describe('instanceCommand', () => {
  it('maps the subordinate ids in a user namespace and never the caller', () => {
    const argv = instanceCommand(mounts, '/build', ['true']);
    expect(argv).toContain('--user');
    expect(argv).toContain('--map-users=100000,0,65536');
    expect(argv).toContain('--map-groups=200000,0,65536');
    expect(argv.some((a) => a.startsWith('--map-user='))).toBe(false);
    expect(argv.join(' ')).toContain('setpriv --reuid=0 --regid=0 --clear-groups');
    // the entry program is opened on the host side, after the view folders
    expect(argv.join(' ')).toContain('9< "$3"');
    expect(argv[argv.indexOf('/h/i') + 1]).toBe('/h/bin/enter-0123');
  });

  it('refuses environment names and program names that could be misread', () => {
    expect(() => instanceCommand(mounts, '/build', ['true'], { 'A B': '1' })).toThrow(/variable name/);
    expect(() => instanceCommand(mounts, '/build', ['X=1'])).toThrow(/program name/);
  });

  it('uses a network namespace unless network is asked for, and dies with its parent', () => {
    const off = instanceCommand(mounts, '/build', ['make', '-j2'], { CFLAGS: '-O2' });
    expect(off.slice(0, 4)).toEqual(['setpriv', '--pdeathsig', 'KILL', 'unshare']);
    expect(off).toContain('--net');
    expect(off).toContain('--kill-child');
    expect(off.slice(-4)).toEqual(['/build', 'CFLAGS=-O2', 'make', '-j2']);
    expect(instanceCommand({ ...mounts, network: true }, '/build', ['true'])).not.toContain('--net');
  });

  it('quotes what the shell would split', () => {
    expect(shellQuote('/plain/path')).toBe('/plain/path');
    expect(shellQuote("it's here")).toBe(`'it'\\''s here'`);
  });
});
