import { joinPath, type SourceTree } from '../SourceTree.ts';
import type { BuildSystemDetector } from './BuildSystemDetector.ts';

/**
 * Whether the tree's own cargo configuration (in the crate's folder or the root, where cargo
 * looks) replaces crates.io already, with vendored sources for instance: then its sources are
 * the ones to build with, and rvport leaves the lock and the registry alone.
 */
function replacesCratesIo(tree: SourceTree, dir: string): boolean {
  const folders = [...new Set([dir, ''])];
  return folders.some((folder) =>
    ['config.toml', 'config'].some((name) =>
      /^\s*replace-with\s*=/m.test(tree.read(joinPath(joinPath(folder, '.cargo'), name)) ?? ''),
    ),
  );
}

/**
 * Whether the crate is a proc-macro (`[lib] proc-macro = true`): a compiler plugin, built for the
 * machine rustc runs on, so its artifact is x86_64 under an x86_64 rustc whatever the target.
 */
export function isProcMacro(manifest: string): boolean {
  const lib = /^\[lib\][^\n]*\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(manifest)?.[1] ?? '';
  return /^\s*proc[-_]macro\s*=\s*true\b/m.test(lib);
}

export const cargo: BuildSystemDetector = {
  type: 'cargo',
  detect(tree, dir) {
    if (!tree.filesIn(dir).includes('Cargo.toml')) return null;
    const path = joinPath(dir, 'Cargo.toml');
    const text = tree.read(path) ?? '';
    const crate = /^\[(package|workspace)\]/m.test(text);
    return {
      confidence: crate ? 0.9 : 0.5,
      evidence: [path],
      details: {
        workspace: /^\[workspace\]/m.test(text),
        sourceReplaced: replacesCratesIo(tree, dir),
        procMacro: isProcMacro(text),
      },
    };
  },
  defaultPlan() {
    return [
      { name: 'build', commands: ['cargo build --release --offline'] },
      { name: 'test', commands: ['cargo test --release --offline'] },
    ];
  },
};
