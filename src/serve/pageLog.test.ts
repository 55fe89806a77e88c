import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LogPager, MAX_LINE_BYTES } from './pageLog.ts';
import { isServeError } from './ServeError.ts';
import { writeEscalatedPort } from './testing/outputFixtures.ts';

let out: string;
beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'rvport-serve-log-'));
});
afterEach(() => rmSync(out, { recursive: true, force: true }));

const noMark = { command: null, errorLine: null };

describe('LogPager', () => {
  it('pages a log by 500 lines, each page holding its own lines', () => {
    writeFileSync(join(out, 'a.log'), Array.from({ length: 1201 }, (_, i) => `line ${i + 1}`).join('\n'));
    const pager = new LogPager(out);
    const first = pager.page('a.log', 1, noMark);
    expect(first).toMatchObject({ page: 1, pages: 3, totalLines: 1201, firstLine: 1, pageSize: 500 });
    expect(first.lines).toHaveLength(500);
    expect(first.lines[0]).toBe('line 1');
    expect(first.lines.at(-1)).toBe('line 500');
    const third = pager.page('a.log', 3, noMark);
    expect(third.firstLine).toBe(1001);
    expect(third.lines).toEqual(Array.from({ length: 201 }, (_, i) => `line ${i + 1001}`));
  });

  it('an exact multiple of the page size with a final newline has no empty last page', () => {
    writeFileSync(join(out, 'b.log'), `${Array.from({ length: 1000 }, (_, i) => `l${i}`).join('\n')}\n`);
    const view = new LogPager(out).page('b.log', 2, noMark);
    expect(view.pages).toBe(2);
    expect(view.lines.at(-1)).toBe('l999');
  });

  it('refuses a page out of range with a not-found error that says how many there are', () => {
    writeFileSync(join(out, 'c.log'), 'one\ntwo\n');
    const pager = new LogPager(out);
    expect(pager.page('c.log', 1, noMark).lines).toEqual(['one', 'two']);
    try {
      pager.page('c.log', 2, noMark);
      expect.unreachable();
    } catch (error) {
      expect(isServeError(error) && error.code).toBe('not-found');
      expect((error as Error).message).toMatch(/1 page\b/);
    }
  });

  it('cuts a huge line instead of sending it whole', () => {
    writeFileSync(join(out, 'd.log'), `short\n${'x'.repeat(MAX_LINE_BYTES * 3)}\nafter\n`);
    const view = new LogPager(out).page('d.log', 1, noMark);
    expect(view.lines).toHaveLength(3);
    expect(view.lines[1]?.length).toBeLessThan(MAX_LINE_BYTES + 20);
    expect(view.lines[1]).toMatch(/line cut/);
    expect(view.lines[2]).toBe('after');
  });

  it("marks the failing command's error line in its last run, on the page it is on", async () => {
    const port = await writeEscalatedPort(out, 'demo', { noiseLines: 1200 });
    const pager = new LogPager(out);
    const mark = { command: 'make -j2', errorLine: port.errorLine };
    const first = pager.page('demo/build.log', 1, mark);
    expect(first.errorLine).toBe(port.errorLineNumber);
    const page = Math.ceil(port.errorLineNumber / 500);
    const view = pager.page('demo/build.log', page, mark);
    expect(view.lines[port.errorLineNumber - view.firstLine]).toBe(port.errorLine);
  });

  it('falls back to the header of the failing command when the error line is not in the log', async () => {
    writeFileSync(join(out, 'e.log'), '\n### [build] (in /build/src) $ make\nboom\n### exit 2 after 1.0 s\n');
    const view = new LogPager(out).page('e.log', 1, { command: 'make', errorLine: 'not there' });
    expect(view.errorLine).toBe(2);
  });

  it('reads a log through a symbolic link out of the folder never', () => {
    symlinkSync('/etc/passwd', join(out, 'evil.log'));
    expect(() => new LogPager(out).page('evil.log', 1, noMark)).toThrow(/outside the tree/);
  });
});
