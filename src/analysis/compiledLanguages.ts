import type { SourceTree } from './SourceTree.ts';

/** A language whose compiler a build may need beyond C and C++. */
export type ExtraLanguage = 'objective-c' | 'objective-c++' | 'ada';

/** `.m` is Objective-C and MATLAB/Octave alike: only Objective-C has these. */
const OBJC_MARKERS = /^\s*(@interface|@implementation|@protocol|#import\s*[<"])/m;
/**
 * Folders of another platform's port (macOS, iOS, Windows): their Objective-C is Cocoa or Core
 * Audio code a Linux build never compiles (jackd2's macosx/coremidi/*.mm).
 */
const OTHER_PLATFORM_DIR =
  /^(mac|macos|macosx|osx|darwin|ios|iphone(os)?|tvos|watchos|apple|cocoa|coreaudio|coremidi|windows|win32|win64|msvc)$|\.(xcodeproj|framework|xcworkspace)$/i;
const onOtherPlatform = (file: string) =>
  file
    .split('/')
    .slice(0, -1)
    .some((d) => OTHER_PLATFORM_DIR.test(d));

/** A `.m` file's first bytes decide; files read at most, so a large tree stays quick. */
const MAX_M_FILES_READ = 40;

/**
 * Which languages of the tree need a compiler front end other than C's and C++'s: Objective-C
 * (`.m` files that are Objective-C, not MATLAB), Objective-C++ (`.mm`) and Ada (`.adb`/`.ads`).
 * Reads only the `.m` files it needs to tell the two `.m` languages apart; files in another
 * platform's folder do not count.
 */
export function extraCompiledLanguages(tree: Pick<SourceTree, 'files' | 'read'>): ExtraLanguage[] {
  const found = new Set<ExtraLanguage>();
  let read = 0;
  for (const file of tree.files) {
    if (onOtherPlatform(file)) continue;
    if (/\.mm$/i.test(file)) found.add('objective-c++');
    else if (/\.ad[bs]$/i.test(file)) found.add('ada');
    else if (/\.m$/.test(file) && !found.has('objective-c') && read < MAX_M_FILES_READ) {
      read++;
      if (OBJC_MARKERS.test(tree.read(file) ?? '')) found.add('objective-c');
    }
  }
  return [...found].sort();
}
