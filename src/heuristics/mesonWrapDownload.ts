import { installNamedDependency, keyOf, type NamedDependency, parseKey } from './installNamedDependency.ts';
import type { HeuristicContext, HeuristicOutcome, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { readTreeFile } from './readTreeFile.ts';

/**
 * meson wanted to download a subproject from its wrap: refused (`--wrap-mode=nodownload`, as
 * every meson plan runs), or failed without the network.
 *   meson.build:2:7: ERROR: Automatic wrap-based subproject downloading is disabled
 *   meson.build:2:4: ERROR: could not get https://… is the internet available?
 */
const WRAP_DOWNLOAD =
  /^((?:[\w.+-]+\/)*meson\.build):(\d+):\d+: ERROR: (?:Automatic wrap-based subproject downloading is disabled|could not get \S+ is the internet available\?)/m;

const NAME = /^[A-Za-z0-9_][\w+.-]*$/;

/** The subproject the failing line of meson.build names: `subproject('inih')`, `dependency('x', fallback: …)`. */
function subprojectOnLine(line: string): { name: string; direct: boolean } | null {
  const direct = /\bsubproject\s*\(\s*'([^']+)'/.exec(line)?.[1];
  if (direct && NAME.test(direct)) return { name: direct, direct: true };
  const dependency = /\bdependency\s*\(\s*'([^']+)'/.exec(line)?.[1];
  return dependency && NAME.test(dependency) ? { name: dependency, direct: false } : null;
}

/** What a wrap file says it provides: `[provide]` `dependency_names = a, b` and `a = a_dep` keys. */
export function wrapProvides(wrap: string): string[] {
  const section = /^\[provide\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(wrap)?.[1] ?? '';
  const names: string[] = [];
  for (const m of section.matchAll(/^\s*([\w.+-]+)\s*=\s*(.*)$/gm)) {
    const [key = '', value = ''] = [m[1], m[2]];
    if (key === 'program_names') continue;
    const listed = key === 'dependency_names' ? value.split(',').map((n) => n.trim()) : [key];
    for (const n of listed) if (NAME.test(n) && !names.includes(n)) names.push(n);
  }
  return names;
}

/** The wrap's source, for the report (`wrap-git from https://…`). */
function wrapOrigin(wrap: string): string {
  const kind = /^\[(wrap-\w+)\]/m.exec(wrap)?.[1] ?? 'wrap';
  const url = /^\s*(?:url|source_url)\s*=\s*(\S+)/m.exec(wrap)?.[1];
  return url ? `${kind} from ${url}` : kind;
}

interface WrapFailure {
  file: string;
  line: number;
  subproject: string;
  direct: boolean;
}

async function wrapFailure(ctx: HeuristicContext): Promise<WrapFailure | null> {
  const m = WRAP_DOWNLOAD.exec(ctx.failure.output);
  if (!m?.[1] || !m[2] || m[1].split('/').includes('..')) return null;
  const text = await readTreeFile(ctx, m[1]);
  const line = text?.split('\n')[Number(m[2]) - 1];
  const named = line ? subprojectOnLine(line) : null;
  return named ? { file: m[1], line: Number(m[2]), subproject: named.name, direct: named.direct } : null;
}

/**
 * meson stops where a wrap would be downloaded. The system's copy is what a Debian build uses:
 * the Debian package of what the wrap provides (pkg-config module, then library) is installed,
 * which `dependency()` then finds before any fallback. A direct `subproject()` call never looks
 * at the system: the escalation names the wrap, its origin and the package that provides it.
 */
export const mesonWrapDownload: RecoveryHeuristic = {
  name: 'meson-wrap-download',
  description: "use the system's copy of a dependency meson would download from a wrap",
  async match(ctx) {
    const failure = await wrapFailure(ctx);
    if (!failure) return null;
    return {
      key: `${failure.file}:${failure.line}:${failure.subproject}`,
      reason: `${failure.file}:${failure.line} downloads the subproject ${failure.subproject} from its wrap`,
    };
  },
  async apply(ctx) {
    const failure = await wrapFailure(ctx);
    if (!failure) return { applied: false, description: 'the wrap could not be read again', commands: [] };
    const wrapName = `subprojects/${failure.subproject}.wrap`;
    const wrap = (await readTreeFile(ctx, wrapName)) ?? '';
    const provided = wrapProvides(wrap);
    const names = provided.length > 0 ? provided : [failure.subproject];
    const wanted: NamedDependency[] = names.flatMap((name) => [
      { kind: 'pkgconfig' as const, name },
      { kind: 'library' as const, name: name.replace(/^lib/, '') },
    ]);
    const about = `${wrapName}${wrap ? `, ${wrapOrigin(wrap)}` : ''}`;
    if (failure.direct) return directSubproject(ctx, failure, about, wanted);
    return installNamedDependency(ctx, parseKey(keyOf(wanted)), `meson would download from ${about}`);
  },
};

/** `subproject('x')` itself: nothing installed helps; say what would. */
async function directSubproject(
  ctx: HeuristicContext,
  failure: WrapFailure,
  about: string,
  wanted: readonly NamedDependency[],
): Promise<HeuristicOutcome> {
  let pkg: string | null = null;
  for (const w of wanted) {
    pkg = await ctx.findPackage(w.kind as 'pkgconfig' | 'library', w.name);
    if (pkg) break;
  }
  const system = pkg
    ? `Debian's ${pkg} provides ${wanted[0]?.name}: call dependency('${wanted[0]?.name}') there instead`
    : 'no Debian package provides it';
  return {
    applied: false,
    description: `${failure.file}:${failure.line} calls subproject('${failure.subproject}'), which meson would download (${about}); ${system}`,
    commands: [],
  };
}
