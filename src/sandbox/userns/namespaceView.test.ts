import { describe, expect, it } from 'vitest';
import { asNamespaceRoot, bindViewLines, openViewScript, viewPath } from './namespaceView.ts';

const ids = { uid: { start: 100000, count: 65536 }, gid: { start: 100000, count: 65536 } };

describe('the namespace view', () => {
  it('names each host folder by the view root that holds it, and refuses one outside them all', () => {
    const roots = ['/h/images/rootfs/tree', '/h/instances/i1'];
    expect(viewPath(roots, '/h/images/rootfs/tree')).toBe('/tmp/v0');
    expect(viewPath(roots, '/h/instances/i1/upper')).toBe('/tmp/v1/upper');
    expect(() => viewPath(roots, '/h/images/other/tree')).toThrow(/not inside/);
    expect(() => viewPath(roots, '/h/instances/i1/../i2')).toThrow(/not inside/);
  });

  it('opens every folder before the ids change and closes every descriptor after binding', () => {
    expect(openViewScript(3)).toContain('exec 3< "$1" 4< "$2" 5< "$3"');
    expect(openViewScript(3).indexOf('exec 3<')).toBeLessThan(openViewScript(3).indexOf('setpriv --reuid=0'));
    expect(bindViewLines(2).at(-1)).toBe('exec 3<&- 4<&-');
    expect(() => openViewScript(0)).toThrow(/view roots/);
    expect(() => bindViewLines(7)).toThrow(/view roots/);
  });

  it('runs rvport steps as the namespace root of the subordinate ids, never mapping the caller', () => {
    const argv = asNamespaceRoot(ids, ['/h/images'], 'exec chroot "$@"', ['/tmp/v0/t', 'true']);
    expect(argv).toContain('--map-users=100000,0,65536');
    expect(argv.some((a) => a.startsWith('--map-user='))).toBe(false);
    expect(argv.slice(-4)).toEqual([
      '/h/images',
      expect.stringContaining('exec chroot "$@"'),
      '/tmp/v0/t',
      'true',
    ]);
  });
});
