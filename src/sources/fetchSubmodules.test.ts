import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { submoduleRefusal, transportOf } from './fetchSubmodules.ts';

describe('transportOf', () => {
  it.each([
    ['https://github.com/a/b.git', 'web'],
    ['http://example.org/b', 'web'],
    ['ssh://git@github.com/a/b', 'ssh'],
    ['git@github.com:a/b.git', 'ssh'],
    ['git://example.org/b', 'git'],
    ['file:///srv/b', 'local'],
    ['/srv/b', 'local'],
    ['../b', 'local'],
    ['ext::sh -c touch% /tmp/x', 'other'],
    ['fd::3', 'other'],
    ['foo://x/y', 'other'],
    ['-uhelp', 'other'],
  ])('%s is %s', (url, kind) => {
    expect(transportOf(url).kind).toBe(kind);
  });
});

describe('submoduleRefusal', () => {
  const https = { kind: 'remote' as const, url: 'https://github.com/o/top.git' };
  const ssh = { kind: 'remote' as const, url: 'git@github.com:o/top.git' };

  it('allows web URLs from any source', () => {
    expect(submoduleRefusal(https, 'https://gitlab.com/x/y.git')).toBeNull();
    expect(submoduleRefusal(ssh, 'https://gitlab.com/x/y.git')).toBeNull();
    expect(submoduleRefusal({ kind: 'local', root: '/srv' }, 'https://gitlab.com/x/y.git')).toBeNull();
  });

  it('allows ssh only for an ssh source on the same host', () => {
    expect(submoduleRefusal(ssh, 'git@github.com:o/private.git')).toBeNull();
    expect(submoduleRefusal(ssh, 'ssh://git@github.com/o/private.git')).toBeNull();
    expect(submoduleRefusal(ssh, 'git@evil.example:o/x.git')).toMatch(/only when the source itself/);
    expect(submoduleRefusal(https, 'git@github.com:o/private.git')).toMatch(/ssh URL .* only when/);
  });

  it('refuses local paths for remote sources and outside the repository for local ones', () => {
    const root = mkdtempSync(join(tmpdir(), 'rvport-submodule-'));
    mkdirSync(join(root, 'top', 'vendor'), { recursive: true });
    mkdirSync(join(root, 'other'));
    symlinkSync(join(root, 'other'), join(root, 'top', 'escape'));
    const local = { kind: 'local' as const, root: join(root, 'top') };
    expect(submoduleRefusal(https, `file://${root}/top/vendor`)).toMatch(/not allowed in a remote source/);
    expect(submoduleRefusal(local, `${root}/top/vendor`)).toBeNull();
    expect(submoduleRefusal(local, `file://${root}/top/vendor`)).toBeNull();
    expect(submoduleRefusal(local, `${root}/other`)).toMatch(/outside the source repository/);
    expect(submoduleRefusal(local, `${root}/top/escape`)).toMatch(/outside the source repository/);
    expect(submoduleRefusal(local, `${root}/top`)).toMatch(/outside/); // itself: a loop
  });

  it('refuses other transports', () => {
    expect(submoduleRefusal(https, 'ext::sh -c id')).toMatch(/transport rvport does not allow/);
  });
});
