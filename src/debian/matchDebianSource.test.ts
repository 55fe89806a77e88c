import { describe, expect, it } from 'vitest';
import { DebianSourceIndex } from './DebianSourceIndex.ts';
import { matchDebianSource } from './matchDebianSource.ts';

const entry = (name: string, homepage?: string) => ({
  name,
  version: '1-1',
  ...(homepage ? { homepage } : {}),
  buildDepends: `Source: ${name}`,
});
const index = new DebianSourceIndex([
  entry('libuv1', 'https://github.com/libuv/libuv'),
  entry('libpcap', 'https://www.tcpdump.org/'),
  entry('tcpdump', 'https://www.tcpdump.org/'),
  entry('htop', 'https://htop.dev/'),
]);

describe('matchDebianSource', () => {
  it('matches by a URL the tree gives for itself', () => {
    const match = matchDebianSource(
      index,
      [{ url: 'https://github.com/libuv/libuv/issues', file: 'configure.ac' }],
      ['libuv'],
    );
    expect(match?.entry.name).toBe('libuv1');
    expect(match?.via).toBe('its URL https://github.com/libuv/libuv/issues (configure.ac)');
  });

  it('narrows a shared project site to the package named like the project, or matches nothing', () => {
    const urls = [{ url: 'https://www.tcpdump.org/', file: 'configure.ac' }];
    expect(matchDebianSource(index, urls, ['libpcap'])?.entry.name).toBe('libpcap');
    expect(matchDebianSource(index, urls, ['other'])).toBeNull();
  });

  it('falls back to the project name its build files declare', () => {
    expect(
      matchDebianSource(index, [{ url: 'https://github.com/htop-dev/htop', file: 'README.md' }], ['htop'])
        ?.via,
    ).toBe('the project name htop its build files declare');
    expect(matchDebianSource(index, [], ['nothing-like-it'])).toBeNull();
  });
});
