import type { SourceTree } from './SourceTree.ts';

/** A language whose compiler a build may need beyond C and C++. */
export type ExtraLanguage = 'objective-c' | 'objective-c++' | 'ada';

/** `.m` is Objective-C and MATLAB/Octave alike: only Objective-C has these. */
const OBJC_MARKERS = /^\s*(@interface|@implementation|@protocol|#import\s*[<"])/m;
/** A `.m` file's first bytes decide; files read at most, so a large tree stays quick. */
const MAX_M_FILES_READ = 40;

/**
 * Which languages of the tree need a compiler front end other than C's and C++'s: Objective-C
 * (`.m` files that are Objective-C, not MATLAB), Objective-C++ (`.mm`) and Ada (`.adb`/`.ads`).
 * Reads only the `.m` files it needs to tell the two `.m` languages apart.
 */
export function extraCompiledLanguages(tree: Pick<SourceTree, 'files' | 'read'>): ExtraLanguage[] {
  const found = new Set<ExtraLanguage>();
  let read = 0;
  for (const file of tree.files) {
    if (/\.mm$/i.test(file)) found.add('objective-c++');
    else if (/\.ad[bs]$/i.test(file)) found.add('ada');
    else if (/\.m$/.test(file) && !found.has('objective-c') && read < MAX_M_FILES_READ) {
      read++;
      if (OBJC_MARKERS.test(tree.read(file) ?? '')) found.add('objective-c');
    }
  }
  return [...found].sort();
}
