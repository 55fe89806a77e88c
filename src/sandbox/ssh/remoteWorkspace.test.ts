import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fromRemote, isRemoteRoot, remoteBaseEnv, toRemote } from './remoteWorkspace.ts';

const root = '/home/rv/.cache/rvport-target/abc-1';

describe('toRemote', () => {
  it.each([
    ['/build', `${root}/build`],
    ['/build/src', `${root}/build/src`],
    [
      'cd /build/src && make DESTDIR=/build/dest install',
      `cd ${root}/build/src && make DESTDIR=${root}/build/dest install`,
    ],
    ['-I/build/src/include', `-I${root}/build/src/include`],
    ['-Wl,-rpath,/build/dest/lib', `-Wl,-rpath,${root}/build/dest/lib`],
    ['"/build/x" \'/build\'', `"${root}/build/x" '${root}/build'`],
    ['PATH=/build/bin:/usr/bin', `PATH=${root}/build/bin:/usr/bin`],
  ])('maps %s', (text, mapped) => {
    expect(toRemote(text, root)).toBe(mapped);
  });

  it.each([
    'src/build',
    '/x/build/y',
    '/builder',
    '/build.sh',
    'cmake --build .',
    '--prefix=/usr',
    'rebuild/build',
  ])('leaves %s alone', (text) => {
    expect(toRemote(text, root)).toBe(text);
  });

  it('maps output back', () => {
    expect(fromRemote(`${root}/build/src/a.c:1: error`, root)).toBe('/build/src/a.c:1: error');
  });
});

describe('isRemoteRoot', () => {
  it('accepts only a plain absolute path that ends in the workspace', () => {
    expect(isRemoteRoot(root, 'abc-1')).toBe(true);
    expect(isRemoteRoot(`${root}\n`, 'abc-1')).toBe(false);
    expect(isRemoteRoot('/etc', 'abc-1')).toBe(false);
    expect(isRemoteRoot(`/home/rv/../..${'/.cache/rvport-target/abc-1'}`, 'abc-1')).toBe(false);
    expect(isRemoteRoot(`/home/$(id)/.cache/rvport-target/abc-1`, 'abc-1')).toBe(false);
  });
});

describe('remoteBaseEnv', () => {
  it('puts the prefix first and keeps HOME and TMPDIR inside the workspace', () => {
    const env = remoteBaseEnv(root);
    expect(env.PATH?.startsWith(`${root}/prefix/usr/bin:`)).toBe(true);
    expect(env.HOME).toBe(`${root}/home`);
    expect(env.TMPDIR).toBe(`${root}/tmp`);
    expect(env.CPATH).toContain(`${root}/prefix/usr/include`);
    // the values are plain words a remote shell would not expand
    for (const value of Object.values(env)) {
      expect(execFileSync('/bin/sh', ['-c', 'printf %s "$1"', 'sh', value], { encoding: 'utf8' })).toBe(
        value,
      );
    }
  });
});
