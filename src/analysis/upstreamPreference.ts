import type { BuildSystemCandidate } from './buildSystems/BuildSystemDetector.ts';
import type { SourceTree } from './SourceTree.ts';

/** How each build system's commands read in a CI job or in build instructions. */
const COMMANDS: Readonly<Record<string, RegExp>> = {
  meson:
    /\bmeson\s+(setup|compile|test|install|configure|build|-D)|\bmeson\s+[\w./-]+\s+[\w./-]*build\b|\bninja\s+-C\b/,
  cmake: /\bcmake\s+(-S|-B|-G|-D|\.\.|\.|--build|--preset)/,
  autotools: /\.\/configure\b|\bautogen\.sh\b|\bautoreconf\b|\.\/bootstrap\b/,
  scons: /\bscons\b/,
  waf: /\.\/waf\b/,
  perl: /\bperl\s+(Makefile|Build)\.PL\b/,
  php: /\bphpize\b/,
  imake: /\bxmkmf\b/,
  qmake: /\bqmake(6|-qt5)?\b/,
  r: /\bR\s+CMD\s+(INSTALL|build|check)\b/,
  make: /(^|[\s;&|:'"-])g?make(\s+(-j\S*|[A-Za-z_][\w-]*|-C\s+\S+))*\s*($|[;&|'"])/m,
};
const CI_FILE =
  /^(\.github\/workflows\/[^/]+\.ya?ml|\.gitlab-ci\.ya?ml|\.travis\.ya?ml|\.cirrus\.ya?ml|appveyor\.ya?ml|azure-pipelines\.ya?ml|\.circleci\/config\.ya?ml|\.builds\/[^/]+\.ya?ml)$/i;
const INSTRUCTIONS = /^(docs?\/)?(README|INSTALL|BUILDING|BUILD|COMPILING)(\.(md|txt|rst|adoc|markdown))?$/i;
/** Said in CI counts more than said in a README: it is what upstream runs. */
export const CI_BONUS = 0.1;
export const INSTRUCTIONS_BONUS = 0.05;

/**
 * Raises the candidates whose commands upstream's own CI jobs or build instructions use, so that
 * of two build systems in one tree the one upstream maintains comes first. Only matters when the
 * tree has candidates of more than one type; equal evidence keeps the order.
 */
export function preferUpstreamBuild(tree: SourceTree, candidates: BuildSystemCandidate[]): void {
  if (new Set(candidates.filter((c) => c.dir === '.').map((c) => c.type)).size < 2) return;
  const sayer = (pattern: RegExp, files: readonly string[]) =>
    files.find((f) => pattern.test(tree.read(f) ?? ''));
  const ci = tree.files.filter((f) => CI_FILE.test(f));
  const docs = tree.files.filter((f) => INSTRUCTIONS.test(f));
  // the tree's own folder only: a CI line does not say which folder it builds, and a build system
  // in a subfolder (cmake_unofficial/) is a side door, not the one upstream treats as primary
  for (const c of candidates.filter((c) => c.dir === '.')) {
    const pattern = COMMANDS[c.type];
    if (!pattern) continue;
    // the file that says so joins the evidence (evidence lists files)
    const inCi = sayer(pattern, ci);
    const inDocs = sayer(pattern, docs);
    const bonus = (inCi ? CI_BONUS : 0) + (inDocs ? INSTRUCTIONS_BONUS : 0);
    if (bonus === 0) continue;
    c.confidence = Math.min(1, Math.round((c.confidence + bonus) * 100) / 100);
    c.evidence = [...c.evidence, ...[inCi, inDocs].filter((f): f is string => !!f)];
  }
}
