import type { SourceTree } from './SourceTree.ts';

/** A URL the tree gives for itself, and the file that says so. */
export interface ProjectUrl {
  url: string;
  file: string;
}

const URL = /^(?:https?|git):\/\/[^\s"'<>()[\]{},]+$/;
const FORGE_LINK = /\bhttps?:\/\/(?:www\.)?(github\.com|gitlab\.com|codeberg\.org)\/([\w.-]+)\/([\w.-]+)/gi;

/** `AC_INIT([flex], [2.6.4], [bug-report URL], [tarname], [URL])`: its arguments, brackets dropped. */
function acInitArgs(text: string): string[] {
  const m = /AC_INIT\s*\(([\s\S]*?)\)\s*$/m.exec(text);
  if (!m?.[1]) return [];
  return m[1].split(',').map((a) => a.replace(/[[\]\s]/g, ''));
}

/** The project's own name, as its build files give it (AC_INIT, CMake's and meson's project()). */
export function projectNames(tree: Pick<SourceTree, 'read'>): string[] {
  const names: string[] = [];
  for (const file of ['configure.ac', 'configure.in']) {
    const first = acInitArgs(tree.read(file) ?? '')[0];
    if (first) names.push(first);
  }
  const cmake = /^\s*project\s*\(\s*([\w.+-]+)/im.exec(tree.read('CMakeLists.txt') ?? '')?.[1];
  if (cmake) names.push(cmake);
  const meson = /^\s*project\s*\(\s*'([\w.+-]+)'/m.exec(tree.read('meson.build') ?? '')?.[1];
  if (meson) names.push(meson);
  return names.map((n) => n.toLowerCase());
}

/**
 * The URLs a tree gives for its own project (never those of the projects it uses): configure.ac's
 * AC_INIT bug-report and URL arguments, CMake's HOMEPAGE_URL, the URL fields of a pkg-config
 * template or RPM spec, Cargo's repository and homepage, go.mod's module path, and README links
 * to a forge repository named like the project. Reads a few files of the top folder only.
 */
export function projectUrls(tree: Pick<SourceTree, 'files' | 'read'>, treeName: string): ProjectUrl[] {
  const out: ProjectUrl[] = [];
  const add = (url: string, file: string) => {
    const clean = url.replace(/[.;:]+$/, '');
    if (!out.some((u) => u.url === clean)) out.push({ url: clean, file });
  };
  for (const file of ['configure.ac', 'configure.in']) {
    const args = acInitArgs(tree.read(file) ?? '');
    for (const arg of [args[2], args[4]]) if (arg && /^https?:\/\//.test(arg)) add(arg, file);
  }
  const homepage = /HOMEPAGE_URL\s+"?([^\s")]+)/.exec(tree.read('CMakeLists.txt') ?? '')?.[1];
  if (homepage) add(homepage, 'CMakeLists.txt');
  const top = tree.files.filter((f) => !f.includes('/'));
  for (const file of top.filter((f) => /\.(pc\.in|spec|spec\.in)$/.test(f))) {
    const url = /^URL:\s*(\S+)/im.exec(tree.read(file) ?? '')?.[1];
    if (url && /^https?:\/\//.test(url)) add(url, file);
  }
  const cargo = tree.read('Cargo.toml') ?? '';
  for (const m of cargo.matchAll(/^(?:repository|homepage)\s*=\s*"([^"]+)"/gm))
    if (m[1]) add(m[1], 'Cargo.toml');
  const module = /^module\s+(\S+)/m.exec(tree.read('go.mod') ?? '')?.[1];
  if (module && /^(github\.com|gitlab\.com|codeberg\.org)\/[^/]+\/[^/]+/.test(module))
    add(`https://${module.split('/').slice(0, 3).join('/')}`, 'go.mod');
  const names = new Set([treeName.toLowerCase(), ...projectNames(tree)]);
  for (const file of top.filter((f) => /^readme(\.(md|rst|txt|markdown))?$/i.test(f))) {
    for (const m of (tree.read(file) ?? '').matchAll(FORGE_LINK)) {
      const repo = (m[3] ?? '').replace(/\.+$/, '').replace(/\.git$/, '');
      if (names.has(repo.toLowerCase())) add(`https://${m[1]}/${m[2]}/${repo}`, file);
    }
  }
  return out.filter((u) => URL.test(u.url));
}
