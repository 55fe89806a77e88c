import { describe, expect, it } from 'vitest';
import { SourceTree } from '../SourceTree.ts';
import { cargo } from './cargo.ts';

describe('cargo detector', () => {
  it('finds a crate or a workspace, and builds offline', () => {
    expect(
      cargo.detect(SourceTree.fromFiles({ 'Cargo.toml': '[package]\nname = "fnv"\n' }), '')?.confidence,
    ).toBe(0.9);
    expect(
      cargo.detect(SourceTree.fromFiles({ 'Cargo.toml': '[workspace]\nmembers = ["a"]\n' }), '')?.details
        ?.workspace,
    ).toBe(true);
    expect(cargo.detect(SourceTree.fromFiles({ 'Cargo.toml': 'garbage' }), '')?.confidence).toBe(0.5);
    const plan = cargo.defaultPlan({ type: 'cargo', confidence: 0.9, dir: '.', evidence: [], details: {} });
    expect(plan.every((p) => p.commands.every((c) => c.includes('--offline')))).toBe(true);
  });
});
