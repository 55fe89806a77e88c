import { describe, expect, it } from 'vitest';
import { archiveFileName, parseAptSelections } from './aptSelections.ts';

const HEX = 'b'.repeat(64);

describe('parseAptSelections', () => {
  it('takes only the package, version (epoch decoded), architecture and claimed size', () => {
    const out = `Reading package lists...\n'http://127.0.0.1:1/anything/at/all' gcc_4%3a14.2.0-1_riscv64.deb 1234 SHA256:${HEX}\n`;
    expect(parseAptSelections(out)).toEqual([
      { name: 'gcc', version: '4:14.2.0-1', architecture: 'riscv64', claimedSize: 1234 },
    ]);
  });

  it('refuses a quoted line of another form and a file name that is not a package', () => {
    expect(() => parseAptSelections(`'http://x/y' a.deb 1 SHA256:${HEX} extra`)).toThrow(/unexpected line/);
    expect(() => parseAptSelections(`'http://x/y' ../a_1_riscv64.deb 1 SHA256:${HEX}`)).toThrow(
      /not a package/,
    );
  });

  it('names the archive file as apt does', () => {
    expect(archiveFileName('gcc', '4:14.2.0-1', 'riscv64')).toBe('gcc_4%3a14.2.0-1_riscv64.deb');
  });
});
