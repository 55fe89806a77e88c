import { joinPath } from '../SourceTree.ts';
import type { BuildSystemDetector } from './BuildSystemDetector.ts';

export const meson: BuildSystemDetector = {
  type: 'meson',
  detect(tree, dir) {
    if (!tree.filesIn(dir).includes('meson.build')) return null;
    const path = joinPath(dir, 'meson.build');
    const project = /^\s*project\s*\(/m.test(tree.read(path) ?? '');
    return { confidence: project ? 0.8 : 0.5, evidence: [path] };
  },
  defaultPlan() {
    return [
      // as Debian's builds run it: a wrap is never downloaded (the sandbox has no network; a
      // dependency meson cannot find on the system fails at once, naming itself)
      {
        name: 'configure',
        commands: ['meson setup build --prefix=/usr --buildtype=release --wrap-mode=nodownload'],
      },
      { name: 'build', commands: ['meson compile -C build'] },
      { name: 'test', commands: ['meson test -C build --print-errorlogs'] },
      { name: 'install', commands: ['DESTDIR="$RVPORT_DESTDIR" meson install -C build'] },
    ];
  },
};
