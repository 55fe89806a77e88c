import { joinPath } from '../SourceTree.ts';
import { type BuildSystemDetector, PARALLEL } from './BuildSystemDetector.ts';

export const cmake: BuildSystemDetector = {
  type: 'cmake',
  detect(tree, dir) {
    if (!tree.filesIn(dir).includes('CMakeLists.txt')) return null;
    const path = joinPath(dir, 'CMakeLists.txt');
    const text = tree.read(path) ?? '';
    // a top-level CMakeLists.txt declares a project; an included fragment does not
    const project = /^\s*project\s*\(/im.test(text);
    return { confidence: project ? 0.8 : 0.55, evidence: [path] };
  },
  defaultPlan() {
    return [
      {
        name: 'configure',
        commands: ['cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr'],
      },
      { name: 'build', commands: [`cmake --build build ${PARALLEL}`] },
      { name: 'test', commands: ['ctest --test-dir build --output-on-failure'] },
      { name: 'install', commands: ['DESTDIR="$RVPORT_DESTDIR" cmake --install build'] },
    ];
  },
};
