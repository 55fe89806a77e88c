import { describe, expect, it } from 'vitest';
import { goModDependencies } from './goModDependencies.ts';

describe('go.mod dependencies', () => {
  it('reads single and block requires', () => {
    const text =
      'module x\n\nrequire github.com/a/b v1.2.3\nrequire (\n\tgolang.org/x/sys v0.1.0 // indirect\n)\n';
    expect(
      goModDependencies
        .extract({ path: 'go.mod', text, lines: text.split('\n') })
        .map((d) => [d.name, d.line, d.required]),
    ).toEqual([
      ['github.com/a/b', 3, true],
      ['golang.org/x/sys', 5, false],
    ]);
  });
});
