import { joinPath } from '../SourceTree.ts';
import type { BuildSystemDetector } from './BuildSystemDetector.ts';

export const go: BuildSystemDetector = {
  type: 'go',
  detect(tree, dir) {
    if (!tree.filesIn(dir).includes('go.mod')) return null;
    const path = joinPath(dir, 'go.mod');
    const module = /^module\s+(\S+)/m.exec(tree.read(path) ?? '')?.[1] ?? null;
    return { confidence: module ? 0.9 : 0.7, evidence: [path], details: { module } };
  },
  defaultPlan() {
    return [
      { name: 'build', commands: ['go build ./...'] },
      { name: 'test', commands: ['go test ./...'] },
    ];
  },
};
