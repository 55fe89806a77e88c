import { joinPath } from '../SourceTree.ts';
import type { BuildSystemDetector } from './BuildSystemDetector.ts';

/** waf: a `wscript`, usually with the `waf` script shipped next to it. */
export const waf: BuildSystemDetector = {
  type: 'waf',
  detect(tree, dir) {
    const files = tree.filesIn(dir);
    if (!files.includes('wscript')) return null;
    const shipped = files.includes('waf');
    const evidence = [joinPath(dir, 'wscript'), ...(shipped ? [joinPath(dir, 'waf')] : [])];
    return { confidence: shipped ? 0.85 : 0.65, evidence, details: { wafShipped: shipped } };
  },
  defaultPlan(candidate) {
    const waf = candidate.details.wafShipped ? 'python3 ./waf' : 'waf';
    return [
      { name: 'configure', commands: [`${waf} configure --prefix=/usr`] },
      { name: 'build', commands: [`${waf} build`] },
      { name: 'install', commands: [`${waf} install --destdir="$RVPORT_DESTDIR"`] },
    ];
  },
};
