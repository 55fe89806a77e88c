import { describe, expect, it } from 'vitest';
import { outdatedConfigGuess } from './outdatedConfigGuess.ts';
import { scanWith } from './scanWith.testing.ts';

const old = 'timestamp=\'2014-03-23\'\ncase "$UNAME_MACHINE:$UNAME_SYSTEM" in\n    aarch64:Linux:*:*)\n';
const current = "timestamp='2018-01-01'\n    riscv32:Linux:*:* | riscv64:Linux:*:*)\n";

describe('config-guess', () => {
  it('reports helpers that do not know riscv64, by content', () => {
    const findings = scanWith(outdatedConfigGuess, {
      'build-aux/config.guess': old,
      'build-aux/config.sub': '| riscv64 | riscv64be\n',
    });
    expect(findings).toEqual([
      expect.objectContaining({
        file: 'build-aux/config.guess',
        severity: 'high',
        line: null,
        snippet: "timestamp='2014-03-23'",
      }),
    ]);
  });

  it('trusts the content over the date', () => {
    expect(
      scanWith(outdatedConfigGuess, { 'config.guess': current.replace('2018-01-01', '2001-01-01') }),
    ).toEqual([]);
  });
});
