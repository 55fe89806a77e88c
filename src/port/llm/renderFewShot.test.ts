import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../llm/index.ts';
import type { FewShotExample } from './fewShotExample.ts';
import { renderFewShot } from './renderFewShot.ts';

const example = (name: string, diffLines = 5): FewShotExample => ({
  package: name,
  imageId: 'img-a',
  buildSystem: 'autotools',
  plan: {
    buildSystem: 'autotools',
    dir: '.',
    phases: [
      { name: 'configure', commands: ['./configure --prefix=/usr'] },
      { name: 'build', commands: ['make -j"$(nproc)"'] },
    ],
    packages: ['zlib1g-dev'],
  },
  errors: [{ category: 'LINKING', signature: 'LINKING: undefined reference to `__atomic_N`' }],
  repairs: [{ source: 'heuristic', name: 'add-libatomic', description: 'LIBS=-latomic', commands: [] }],
  llmFixes: [
    { description: 'cast getc to int', commands: [], patch: '--- a/x.c\n+++ b/x.c\n', outcome: 'applied' },
  ],
  patches: [
    {
      name: '0001-char.patch',
      diff: Array.from({ length: diffLines }, (_, i) => `+line ${i} of the patch`).join('\n'),
    },
  ],
});

describe('renderFewShot', () => {
  it('renders each example: plan, errors, repairs, LLM fixes, patches', () => {
    const text = renderFewShot([example('libfoo')], 2_000);
    expect(text).toContain('### Example 1: libfoo (autotools, sandbox image img-a), verified');
    expect(text).toContain('configure: ./configure --prefix=/usr');
    expect(text).toContain('packages: zlib1g-dev');
    expect(text).toContain('undefined reference to `__atomic_N`');
    expect(text).toContain('heuristic add-libatomic: LIBS=-latomic');
    expect(text).toContain('LLM fix (applied): cast getc to int');
    expect(text).toContain('Patch 0001-char.patch:');
  });

  it('stays within the budget, shared between the examples, cutting the later parts', () => {
    const examples = [example('a', 2_000), example('b', 2_000), example('c', 2_000)];
    for (const budget of [150, 600, 1_200, 3_000]) {
      const text = renderFewShot(examples, budget);
      expect(estimateTokens(text)).toBeLessThanOrEqual(budget);
      expect(text).toContain('### Example 3: c');
    }
    const small = renderFewShot(examples, 600);
    expect(small).toContain('Plan that worked');
    expect(small).not.toContain('+line 1999');
  });

  it('is empty without examples or budget', () => {
    expect(renderFewShot([], 1_000)).toBe('');
    expect(renderFewShot([example('a')], 0)).toBe('');
  });
});
