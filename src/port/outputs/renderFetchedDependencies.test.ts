import { describe, expect, it } from 'vitest';
import { recipeEntrySchema } from '../../recipes/RecipeEntry.ts';
import { renderFetchedDependencies } from './renderFetchedDependencies.ts';

describe('renderFetchedDependencies', () => {
  it('lists each module with version, hash and supplier (the proxy now, or the store)', () => {
    const text = renderFetchedDependencies({
      kind: 'go',
      from: 'http://127.0.0.1:1',
      paths: [],
      items: [
        {
          kind: 'go-module',
          name: 'example.com/a',
          version: 'v1.0.0',
          hash: 'h1:A=',
          suppliedBy: 'proxy',
          from: 'http://127.0.0.1:1',
        },
        {
          kind: 'go-module',
          name: 'example.com/b',
          version: 'v0.1.0',
          hash: 'h1:B=',
          modOnly: true,
          suppliedBy: 'store',
          from: 'http://127.0.0.1:1',
        },
      ],
    }).join('\n');
    expect(text).toContain('## Go modules');
    expect(text).toContain('| example.com/a | v1.0.0 | h1:A= | module proxy http://127.0.0.1:1 |');
    expect(text).toContain(
      "| example.com/b | v0.1.0 (go.mod only) | h1:B= | rvport's store (checked again; first from http://127.0.0.1:1) |",
    );
  });

  it('the cache entry keeps them, and an entry without them (older) still reads', () => {
    const base = {
      formatVersion: 1,
      package: 'demo',
      imageId: 'img',
      source: { spec: '/x' },
      buildSystem: 'go',
      plan: { dir: '.', packages: [], phases: [] },
      dependencies: [],
      patches: [],
      artifacts: [],
      verification: { verdict: 'verified', reason: 'ok' },
      durations: {},
      recipe: '',
      createdAt: '2026-01-01T00:00:00Z',
      rvportVersion: '0',
    };
    expect(recipeEntrySchema.safeParse(base).success).toBe(true);
    const item = {
      kind: 'crate',
      name: 'fnv',
      version: '1.0.7',
      hash: 'sha256:ab',
      suppliedBy: 'registry',
      from: 'http://r/',
    };
    expect(recipeEntrySchema.parse({ ...base, fetchedDependencies: [item] }).fetchedDependencies).toEqual([
      item,
    ]);
    expect(
      recipeEntrySchema.safeParse({ ...base, fetchedDependencies: [{ ...item, suppliedBy: 'x' }] }).success,
    ).toBe(false);
  });
});
