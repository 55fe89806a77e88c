import { joinPath } from '../SourceTree.ts';
import type { BuildSystemDetector } from './BuildSystemDetector.ts';

/** Python build backends: pyproject.toml (PEP 517) or the older setup.py. */
export const python: BuildSystemDetector = {
  type: 'python',
  detect(tree, dir) {
    const files = tree.filesIn(dir);
    if (files.includes('pyproject.toml')) {
      const path = joinPath(dir, 'pyproject.toml');
      const text = tree.read(path) ?? '';
      const backend = /^\s*build-backend\s*=\s*["']([^"']+)/m.exec(text)?.[1] ?? null;
      if (/^\[build-system\]/m.test(text) || /^\[project\]/m.test(text)) {
        return { confidence: 0.75, evidence: [path], details: { backend } };
      }
    }
    if (files.includes('setup.py'))
      return { confidence: 0.65, evidence: [joinPath(dir, 'setup.py')], details: { backend: 'setuptools' } };
    return null;
  },
  defaultPlan() {
    return [
      { name: 'build', commands: ['python3 -m pip wheel --no-deps --no-build-isolation -w dist .'] },
      { name: 'test', commands: ['python3 -m pytest'] },
    ];
  },
};
