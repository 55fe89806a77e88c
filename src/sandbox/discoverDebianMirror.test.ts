import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverDebianMirror, findDebianMirror } from './discoverDebianMirror.ts';

// Example hosts only (RFC 2606 names), never a real archive.
describe('findDebianMirror', () => {
  it('reads a deb822 stanza and ignores security, deb-src-only and disabled stanzas', () => {
    const text = [
      'Types: deb-src',
      'URIs: http://src.example.org/debian',
      'Suites: bookworm',
      '',
      'Types: deb',
      'URIs: http://off.example.org/debian',
      'Enabled: no',
      '',
      'Types: deb',
      'URIs: http://sec.example.org/debian-security',
      '',
      'Types: deb deb-src',
      '# a comment',
      'URIs: https://mirror.example.org/debian/',
      'Suites: bookworm',
    ].join('\n');
    expect(findDebianMirror([{ path: '/etc/apt/sources.list.d/debian.sources', text }])).toBe(
      'https://mirror.example.org/debian',
    );
  });

  it('reads one-line sources with options and prefers .sources files', () => {
    const list =
      '# deb http://old.example.org/debian bookworm main\ndeb [arch=amd64 signed-by=/k.gpg] http://list.example.org/debian bookworm main\n';
    expect(findDebianMirror([{ path: '/etc/apt/sources.list', text: list }])).toBe(
      'http://list.example.org/debian',
    );
    expect(
      findDebianMirror([
        { path: '/etc/apt/sources.list', text: list },
        {
          path: '/etc/apt/sources.list.d/x.sources',
          text: 'Types: deb\nURIs: http://deb822.example.org/debian\n',
        },
      ]),
    ).toBe('http://deb822.example.org/debian');
  });

  it('finds nothing when no Debian archive is configured', () => {
    expect(
      findDebianMirror([
        { path: '/etc/apt/sources.list', text: 'deb http://ppa.example.org/ubuntu jammy main\n' },
      ]),
    ).toBe(undefined);
  });

  it('reads a real apt folder layout', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvport-apt-'));
    await mkdir(join(dir, 'sources.list.d'));
    await writeFile(join(dir, 'sources.list.d', 'a.list'), 'deb http://a.example.org/debian trixie main\n');
    expect(await discoverDebianMirror(dir)).toBe('http://a.example.org/debian');
  });
});
