import { describe, expect, it } from 'vitest';
import { unverifiedWarning } from './ContentsIndex.ts';

describe('unverifiedWarning', () => {
  it('says in one line what a mismatch means and that nothing is needed', () => {
    const line = unverifiedWarning(
      ['main/Contents-riscv64.gz', 'main/Contents-all.gz'],
      'Origin: Debian\nDate: Sat, 21 Nov 2026 09:15:44 UTC\n',
    );
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain('main/Contents-riscv64.gz and main/Contents-all.gz are not the one');
    expect(line).toContain('(Sat, 21 Nov 2026 09:15:44 UTC)');
    expect(line).toMatch(/another snapshot/);
    expect(line).toMatch(/apt checks each package/);
  });
});
