import type { BuildSystemType } from './buildSystems/BuildSystemDetector.ts';
import type { ExtraLanguage } from './compiledLanguages.ts';
import { withoutForeignScopes } from './qmakeScopes.ts';
import type { SourceTree } from './SourceTree.ts';

/** What the analysis says of one language the tree has beyond C and C++. */
export interface LanguageUse {
  language: ExtraLanguage;
  /** Whether the build needs its compiler. */
  needed: boolean;
  /** Why, for the report: the build file that names it, or why the build is taken to need it. */
  why: string;
}

/** The files each build system reads, by name; others in their folders are not its build. */
const BUILD_FILES: Partial<Record<BuildSystemType, RegExp>> = {
  cmake: /(^|\/)(CMakeLists\.txt|[^/]+\.cmake)$/,
  meson: /(^|\/)meson\.build$/,
  autotools: /(^|\/)(configure\.(ac|in)|Makefile\.am|[^/]+\.mk|acinclude\.m4)$/,
  configure: /(^|\/)(configure|Makefile(\.in)?|GNUmakefile|makefile|[^/]+\.mk)$/,
  make: /(^|\/)(Makefile|GNUmakefile|makefile|[^/]+\.mk)$/,
  // a project, its included fragments and its own features (.qmake.conf sets project-wide values)
  qmake: /(^|\/)([^/]+\.(pro|pri|prf)|\.qmake\.conf)$/,
};

/**
 * How a build file says it compiles a language: the build system's own declaration (CMake's
 * `project()`/`enable_language()`, meson's languages, autoconf's `AC_PROG_OBJC`), the compiler
 * or builder named in a rule (gnatmake, `-x objective-c`), or a suffix rule for its files.
 */
const NAMED: Record<ExtraLanguage, RegExp> = {
  'objective-c':
    /\bOBJECTIVE_SOURCES\b|\b(project|enable_language)\s*\([^)]*\bOBJC\b|\b(project|add_languages)\s*\([^)]*['"]objc['"]|\bAC_PROG_OBJC\b|_OBJCFLAGS\b|\$[({]OBJC[)}]|-x\s*objective-c\b|%\.m\b|\.m\.o\b/,
  'objective-c++':
    /\bOBJECTIVE_SOURCES\b|\b(project|enable_language)\s*\([^)]*\bOBJCXX\b|\b(project|add_languages)\s*\([^)]*['"]objcpp['"]|\bAC_PROG_OBJCXX\b|_OBJCXXFLAGS\b|\$[({]OBJCXX[)}]|-x\s*objective-c\+\+|%\.mm\b|\.mm\.o\b|\.mm\b/,
  ada: /\b(gnatmake|gprbuild|gnatbind|gnatlink|AC_PROG_ADA|enable_language\s*\([^)]*\bADA\b)|-x\s*ada\b|%\.ad[bs]\b|\.ad[bs]\b/,
};

/** Build files read at most: a tree of thousands of CMake modules stays quick. */
const MAX_BUILD_FILES = 400;

const inside = (dir: string, file: string) => dir === '.' || file.startsWith(`${dir}/`);

/**
 * For each language the tree has beyond C and C++, whether the chosen build names it: only then
 * does the build need that language's compiler (zlib's CMake build never compiles contrib/ada).
 * A source file of the language named by path also counts (a Makefile listing `foo.m`). Build
 * systems whose files say nothing of this (Python's setuptools, Cargo's cc crate, SCons, waf, …)
 * are taken to need every language of the tree, as before: a wrong "not named" costs a failed
 * build, which the port then redoes in emulated mode.
 */
export function languagesTheBuildNames(
  tree: Pick<SourceTree, 'files' | 'read'>,
  build: { type: BuildSystemType; dir: string },
  languages: readonly ExtraLanguage[],
): LanguageUse[] {
  const pattern = BUILD_FILES[build.type];
  if (!pattern || languages.length === 0) {
    const why = `the ${build.type} build's files do not declare the languages it compiles`;
    return languages.map((language) => ({ language, needed: true, why }));
  }
  const all = tree.files.filter((f) => inside(build.dir, f) && pattern.test(f)).slice(0, MAX_BUILD_FILES);
  // a build file of a folder the build never enters (drawterm's gui-cocoa/Makefile) is not its build
  const files = all.filter((file) => enteredFromAbove(tree, all, build.dir, file));
  const sourceNames = sourceBasenames(tree, languages);
  return languages.map((language) => {
    const names = sourceNames.get(language) ?? [];
    const namedBy =
      files.find((file) => {
        const read = tree.read(file);
        // what a qmake scope of another system holds (`macx { OBJECTIVE_SOURCES += … }`) is not built here
        const text = read && build.type === 'qmake' ? withoutForeignScopes(read) : read;
        if (!text) return false;
        return NAMED[language].test(text) || names.some((name) => mentions(text, name));
      }) ?? null;
    return namedBy
      ? { language, needed: true, why: `${namedBy} names it` }
      : { language, needed: false, why: `none of the ${build.type} build's files names it` };
  });
}

/**
 * Whether the build reaches the folder of `file`: the build's own folder, or a folder whose name a
 * build file of a folder above it mentions (SUBDIRS, add_subdirectory, subdir(), `$(MAKE) -C`).
 */
function enteredFromAbove(
  tree: Pick<SourceTree, 'read'>,
  files: readonly string[],
  root: string,
  file: string,
): boolean {
  const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
  if (folder === root || folder === '.') return true;
  const name = folder.slice(folder.lastIndexOf('/') + 1);
  const word = new RegExp(`(^|[^\\w.-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w.-])`, 'm');
  return files.some((other) => {
    const otherFolder = other.includes('/') ? other.slice(0, other.lastIndexOf('/')) : '.';
    const above = otherFolder === '.' || folder.startsWith(`${otherFolder}/`);
    if (!above || other === file) return false;
    const text = tree.read(other);
    return text ? word.test(text) : false;
  });
}

/** The languages the build needs a compiler for. */
export function languagesNeeded(uses: readonly LanguageUse[]): ExtraLanguage[] {
  return uses.filter((u) => u.needed).map((u) => u.language);
}

const EXTENSIONS: Record<ExtraLanguage, RegExp> = {
  'objective-c': /\.m$/,
  'objective-c++': /\.mm$/i,
  ada: /\.ad[bs]$/i,
};

/** A few file names of each language, to find them listed in a build file. */
function sourceBasenames(
  tree: Pick<SourceTree, 'files'>,
  languages: readonly ExtraLanguage[],
): Map<ExtraLanguage, string[]> {
  const out = new Map<ExtraLanguage, string[]>();
  for (const language of languages) {
    const names = new Set<string>();
    for (const file of tree.files) {
      if (!EXTENSIONS[language].test(file)) continue;
      names.add(file.slice(file.lastIndexOf('/') + 1));
      if (names.size >= 50) break;
    }
    out.set(language, [...names]);
  }
  return out;
}

function mentions(text: string, name: string): boolean {
  let at = text.indexOf(name);
  while (at !== -1) {
    const before = at === 0 ? '' : text[at - 1];
    const after = text[at + name.length] ?? '';
    if (!/[\w.-]/.test(before ?? '') && !/[\w]/.test(after)) return true;
    at = text.indexOf(name, at + 1);
  }
  return false;
}
