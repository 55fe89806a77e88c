import { describe, expect, it } from 'vitest';
import { projectKey } from './projectKey.ts';

describe('projectKey', () => {
  it('makes a Homepage, a Vcs-Git URL and a README link of one project compare equal', () => {
    expect(projectKey('https://github.com/libuv/libuv')).toBe('github.com/libuv/libuv');
    expect(projectKey('https://github.com/LibUV/libuv.git/')).toBe('github.com/libuv/libuv');
    expect(projectKey('git@github.com:libuv/libuv.git')).toBe('github.com/libuv/libuv');
    expect(projectKey('https://github.com/libuv/libuv/issues?q=1#top')).toBe('github.com/libuv/libuv');
    expect(projectKey('https://www.gnu.org/software/flex/')).toBe('gnu.org/software/flex');
    expect(projectKey('http://zlib.net/index.html')).toBe('zlib.net');
  });

  it("says nothing for Debian's packaging repositories and what is no project URL", () => {
    expect(projectKey('https://salsa.debian.org/debian/libuv1.git')).toBeNull();
    expect(projectKey('https://github.com/')).toBeNull();
    expect(projectKey('see the README')).toBeNull();
    expect(projectKey('file:///tmp/x')).toBeNull();
  });
});
