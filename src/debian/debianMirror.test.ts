import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { debianMirror, findDebianMirror } from './debianMirror.ts';

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
    expect(debianMirror({}, dir)).toBe('http://a.example.org/debian');
  });
});

function aptEtc(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-apt-'));
  mkdirSync(join(dir, 'sources.list.d'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('debianMirror on apt folders', () => {
  it('reads deb822 sources first', () => {
    const etc = aptEtc({
      'sources.list.d/debian.sources': 'Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm\n',
      'sources.list': 'deb http://other.example/debian bookworm main\n',
    });
    expect(debianMirror({}, etc)).toBe('http://mirror.example/debian');
  });

  it('reads one-line sources, skipping security and options', () => {
    const etc = aptEtc({
      'sources.list':
        '# comment\ndeb http://security.example/debian-security bookworm-security main\ndeb [arch=amd64] https://m.example/debian/ bookworm main\n',
    });
    expect(debianMirror({}, etc)).toBe('https://m.example/debian');
  });

  it('lets RVPORT_DEBIAN_MIRROR win and says null when nothing is configured', () => {
    expect(debianMirror({ RVPORT_DEBIAN_MIRROR: 'http://x.example/debian' }, aptEtc({}))).toBe(
      'http://x.example/debian',
    );
    expect(debianMirror({}, aptEtc({}))).toBeNull();
  });
});
