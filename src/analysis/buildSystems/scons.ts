import { joinPath } from '../SourceTree.ts';
import { type BuildSystemDetector, PARALLEL } from './BuildSystemDetector.ts';

export const scons: BuildSystemDetector = {
  type: 'scons',
  detect(tree, dir) {
    const file = ['SConstruct', 'Sconstruct', 'sconstruct'].find((f) => tree.filesIn(dir).includes(f));
    return file ? { confidence: 0.8, evidence: [joinPath(dir, file)] } : null;
  },
  defaultPlan() {
    return [
      { name: 'build', commands: [`scons ${PARALLEL} PREFIX=/usr`] },
      { name: 'test', commands: ['scons check'] },
      { name: 'install', commands: ['scons PREFIX=/usr install --install-sandbox="$RVPORT_DESTDIR"'] },
    ];
  },
};
