import { joinPath } from '../SourceTree.ts';
import type { BuildSystemDetector } from './BuildSystemDetector.ts';

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
      details: { workspace: /^\[workspace\]/m.test(text) },
    };
  },
  defaultPlan() {
    return [
      { name: 'build', commands: ['cargo build --release --offline'] },
      { name: 'test', commands: ['cargo test --release --offline'] },
    ];
  },
};
