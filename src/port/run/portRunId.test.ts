import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSource } from '../../sources/parseSource.ts';
import { portRunId } from './portRunId.ts';

const dir = mkdtempSync(join(tmpdir(), 'rvport-run-id-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('portRunId', () => {
  it('differs for two sources with the same package name', () => {
    const a = portRunId(parseSource('https://example.invalid/one/zlib.git'));
    const b = portRunId(parseSource('https://example.invalid/fork/zlib.git'));
    expect(a).toMatch(/^port-zlib-[0-9a-f]{12}$/);
    expect(b).toMatch(/^port-zlib-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
  });

  it('is the same for one local folder however it is written, and differs for another folder', () => {
    for (const d of ['x/zlib', 'y/zlib']) {
      mkdirSync(join(dir, d), { recursive: true });
      writeFileSync(join(dir, d, 'README'), '');
    }
    const absolute = portRunId(parseSource(join(dir, 'x', 'zlib')));
    expect(portRunId(parseSource('./zlib', join(dir, 'x')))).toBe(absolute);
    expect(portRunId(parseSource(join(dir, 'y', 'zlib')))).not.toBe(absolute);
  });
});
