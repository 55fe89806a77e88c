import { describe, expect, it } from 'vitest';
import { SourceTree } from '../SourceTree.ts';
import { cargo, isProcMacro } from './cargo.ts';

describe('isProcMacro', () => {
  it('reads proc-macro = true in the [lib] table only', () => {
    // as cargo publish normalises a manifest (rust-auto-impl's, shortened)
    const manifest =
      '[package]\nname = "auto_impl"\nkeywords = [\n    "proc-macro",\n]\n\n[lib]\nname = "auto_impl"\npath = "src/lib.rs"\nproc-macro = true\n\n[dependencies.proc-macro2]\nversion = "1.0"\n';
    expect(isProcMacro(manifest)).toBe(true);
    expect(isProcMacro('[lib]\nproc_macro = true\n')).toBe(true);
    expect(isProcMacro('[package]\nname = "x"\n[lib]\nname = "x"\n[features]\nproc-macro = true\n')).toBe(
      false,
    );
    expect(isProcMacro('[package]\nname = "fnv"\n')).toBe(false);
  });
});

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
