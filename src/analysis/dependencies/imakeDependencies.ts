import {
  C_RUNTIME_LIBRARIES,
  type DependencyExtractor,
  matchesWithLines,
  type RawDependency,
} from './Dependency.ts';

/**
 * The X libraries imake's own variables stand for (`XTOOLLIB` is `-lXt`), by the library each
 * links: the Contents index then names the -dev package that has it.
 */
const LIBRARY_VARIABLES: Readonly<Record<string, string>> = {
  XLIB: 'X11',
  XONLYLIB: 'X11',
  XTOOLLIB: 'Xt',
  XTOOLONLYLIB: 'Xt',
  XMULIB: 'Xmu',
  XMULIBONLY: 'Xmu',
  XAWLIB: 'Xaw',
  XawClientLibs: 'Xaw',
  XMLIB: 'Xm',
  XmClientLibs: 'Xm',
  MOTIFLIB: 'Xm',
  XPMLIB: 'Xpm',
  XEXTLIB: 'Xext',
  XEXTENSIONLIB: 'Xext',
  XILIB: 'Xi',
  XTESTLIB: 'Xtst',
  XRANDRLIB: 'Xrandr',
  XRENDERLIB: 'Xrender',
  XFTLIB: 'Xft',
  XINERAMALIB: 'Xinerama',
  SMLIB: 'SM',
  ICELIB: 'ICE',
};

/**
 * What an Imakefile needs: xmkmf and X's imake configuration (xutils-dev), and the libraries its
 * LOCAL_LIBRARIES and kin name, by imake's variables (`$(XTOOLLIB)`) or directly (`-lXm`).
 */
export const imakeDependencies: DependencyExtractor = {
  name: 'imake',
  files: /(^|\/)Imakefile$/,
  buildSystems: ['imake'],
  extract(file) {
    const deps: RawDependency[] = [
      { kind: 'program', name: 'xmkmf', file: file.path, line: 1, required: true },
    ];
    const seen = new Set<string>();
    const add = (name: string, line: number) => {
      if (seen.has(name) || C_RUNTIME_LIBRARIES.has(name)) return;
      seen.add(name);
      deps.push({ kind: 'library', name, file: file.path, line, required: true });
    };
    for (const { match, line } of matchesWithLines(
      file.text,
      /\$[({]([A-Za-z]+)[)}]|(?:^|\s)-l([A-Za-z][\w+.-]*)/gm,
    )) {
      const lib = match[1] ? LIBRARY_VARIABLES[match[1]] : match[2];
      if (lib) add(lib, line);
    }
    return deps;
  },
};
