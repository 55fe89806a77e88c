import { ContentsIndex, ensureContentsIndex } from '../../analysis/index.ts';
import { debianMirror } from '../../debian/debianMirror.ts';
import { once } from './once.ts';
import type { ProgressEvent } from './ProgressEvent.ts';

/** Loads the riscv64 Contents index once (downloading it on first use); null when it cannot. */
export function contentsLoader(
  home: string,
  suite: string,
  mirror: string | undefined,
  progress: (e: ProgressEvent) => void,
) {
  return once(async () => {
    const from = mirror ?? debianMirror();
    if (!from) return null;
    return ensureContentsIndex({
      home,
      suite,
      mirror: from,
      log: (line) => progress({ type: 'note', message: line }),
    })
      .then((file) => ContentsIndex.load(file))
      .catch((error: Error) => {
        progress({
          type: 'note',
          message: `Debian Contents index unavailable (${error.message}); using the alias table`,
        });
        return null;
      });
  });
}
