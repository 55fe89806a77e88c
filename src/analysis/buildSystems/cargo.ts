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
      details: { workspace: /^\[workspace\]/m.test(text), sourceReplaced: replacesCratesIo(tree, dir) },
    };
  },
  defaultPlan() {
    return [
      { name: 'build', commands: ['cargo build --release --offline'] },
      { name: 'test', commands: ['cargo test --release --offline'] },
    ];
  },
};
