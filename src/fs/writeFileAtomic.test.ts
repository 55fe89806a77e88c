import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './writeFileAtomic.ts';

const self = fileURLToPath(new URL('./writeFileAtomic.ts', import.meta.url));
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('replaces the content and leaves no temporary file', async () => {
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old');
    await writeFileAtomic(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('flushes the data before the rename and the folder after it (seen by strace in a real process)', () => {
    const file = join(dir, 'entry.json');
    const script = `const { writeFileAtomic } = await import(${JSON.stringify(self)}); await writeFileAtomic(process.argv[1], 'x');`;
    const traced = spawnSync(
      'strace',
      [
        '-f',
        '-y',
        '-e',
        'trace=fsync,fdatasync,rename,renameat,renameat2',
        process.execPath,
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        script,
        file,
      ],
      { encoding: 'utf8' },
    );
    expect(traced.status, traced.stderr).toBe(0);
    const calls = traced.stderr
      .split('\n')
      .filter((l) => /(fsync|fdatasync|rename\w*)\(/.test(l) && l.includes(dir));
    const fileSync = calls.findIndex((l) => /f(data)?sync\(\d+<[^>]*entry\.json\.tmp-/.test(l));
    const renamed = calls.findIndex((l) => /rename\w*\(.*entry\.json\.tmp-.*entry\.json/.test(l));
    const folderSync = calls.findIndex((l) => new RegExp(`f(data)?sync\\(\\d+<${dir}>\\)`).test(l));
    expect(fileSync, calls.join('\n')).toBeGreaterThanOrEqual(0);
    expect(renamed).toBeGreaterThan(fileSync);
    expect(folderSync).toBeGreaterThan(renamed);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });
});
