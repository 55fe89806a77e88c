import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { debianMirror } from './debianMirror.ts';

function aptEtc(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-apt-'));
  mkdirSync(join(dir, 'sources.list.d'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('debianMirror', () => {
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
