import { posix } from 'node:path';
import { readTextConfined, walkConfined } from '../fs/index.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { mapCommands } from './planEdits.ts';
import type { HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** CMake's own modules that download at configure time. */
const DOWNLOAD_CALL =
  /^\s*([^\s:]*CMakeLists\.txt|[^\s:]+\.cmake):(\d+) \((FetchContent_MakeAvailable|FetchContent_Populate|ExternalProject_Add|file)\)/m;
/** A download's failure, in CMake's, curl's or git's words. */
export const DOWNLOAD_FAILED =
  /Could not resolve host|Couldn't resolve host|Failed to download|download failed|status_code: [1-9]|Build step for \w+ failed/i;
/** Switches of parts a package can be built without (tests, benchmarks, examples, docs, fuzzers). */
export const OPTIONAL_PART = /TEST|BENCH|EXAMPLE|DEMO|DOC|FUZZ/i;

/**
 * The innermost `if(VAR)` around a line of a CMake file, where VAR is a plain variable (and one
 * `accept` takes): the switch that brings the download in.
 */
export function enclosingSwitch(
  cmake: string,
  line: number,
  accept: (name: string) => boolean = () => true,
): string | null {
  const stack: (string | null)[] = [];
  const lines = cmake.split('\n').slice(0, line - 1);
  for (const raw of lines) {
    const text = raw.replace(/#.*$/, '').trim();
    const opened = /^if\s*\(\s*(?:\$\{)?([A-Za-z_][A-Za-z0-9_]*)\}?\s*\)/i.exec(text);
    if (opened) stack.push(opened[1] ?? null);
    else if (/^if\s*\(/i.test(text)) stack.push(null);
    else if (/^endif\s*\(/i.test(text)) stack.pop();
  }
  for (let i = stack.length - 1; i >= 0; i--)
    if (stack[i] && accept(stack[i] as string)) return stack[i] as string;
  return null;
}

/**
 * A project's own message after the download sub-build it runs at configure time (the
 * googletest-download pattern): `Build step for googletest failed: 2`.
 */
const PROJECT_STEP =
  /^CMake Error at ([^\s:]*CMakeLists\.txt|[^\s:]+\.cmake):(\d+) \(message\):\n\s+(?:Build|CMake|Configure|Download) step for ([\w.+-]+) failed/m;
/** ExternalProject's (and FetchContent's sub-build's) progress line of the failing download. */
const DOWNLOAD_STEP = /Performing download step \([^)]*\) for '([\w.+-]+)'/;
const MAX_CMAKE_FILES = 400;

/** Where the download is declared: file (relative to the plan's folder), line, and what it is. */
interface DownloadSite {
  file: string;
  line: number;
  what: string;
}

/** The `ExternalProject_Add(NAME` or `FetchContent_Declare(NAME` of the tree's CMake files. */
function declarationOf(root: string, dir: string, name: string): DownloadSite | null {
  let entries: ReturnType<typeof walkConfined>['entries'];
  try {
    entries = walkConfined(root, {
      from: dir,
      maxEntries: 50_000,
      skipDir: (folder) => folder === '.git' || folder === 'CMakeFiles' || folder.endsWith('-prefix'),
    }).entries;
  } catch {
    return null;
  }
  const escaped = name.replace(/[.+]/g, '\\$&');
  const declared = new RegExp(
    `^\\s*(ExternalProject_Add|FetchContent_Declare)\\s*\\(\\s*"?${escaped}"?(\\s|\\)|$)`,
    'im',
  );
  const files = entries
    .filter((e) => e.type === 'file' && (e.name === 'CMakeLists.txt' || e.name.endsWith('.cmake')))
    .slice(0, MAX_CMAKE_FILES);
  const prefix = dir === '.' ? '' : `${dir}/`;
  for (const file of files) {
    const { text } = readTextConfined(root, file.path, { maxBytes: 1024 * 1024 });
    const m = text === null ? null : declared.exec(text);
    if (!text || !m) continue;
    const line = text.slice(0, m.index + (m[0].length - m[0].trimStart().length)).split('\n').length;
    const rel = file.path.startsWith(prefix) ? file.path.slice(prefix.length) : file.path;
    return { file: rel, line, what: m[1] as string };
  }
  return null;
}

/**
 * The download's declaration: the call CMake's call stack names, the project's own message
 * after its download sub-build, or, for a download at build time (ExternalProject), the
 * declaration of the project the failing download step belongs to.
 */
function downloadSite(ctx: HeuristicContext): DownloadSite | null {
  const out = ctx.failure.output;
  const call = DOWNLOAD_CALL.exec(out);
  if (call)
    return call[1]?.startsWith('/')
      ? null
      : { file: call[1] as string, line: Number(call[2]), what: call[3] as string };
  const step = PROJECT_STEP.exec(out);
  if (step)
    return step[1]?.startsWith('/')
      ? null
      : { file: step[1] as string, line: Number(step[2]), what: `the ${step[3]} download sub-build` };
  const name = DOWNLOAD_STEP.exec(out)?.[1]?.replace(/-populate$/, '');
  return name ? declarationOf(buildTreeRoot(ctx), ctx.plan.dir, name) : null;
}

/**
 * A CMake configure or build step that downloads code (googletest through FetchContent, a benchmark
 * library through ExternalProject) fails without the network. When the download sits inside
 * `if(SWITCH)` and SWITCH is an optional part (tests, benchmarks, examples, docs), configure with
 * `-DSWITCH=OFF`: the rest of the package still builds, and the recipe records the switch.
 */
export const disableDownloadingOption: RecoveryHeuristic = {
  name: 'disable-downloading-option',
  description: 'turn off the optional CMake part whose configure or build step downloads code',
  match(ctx) {
    const out = ctx.failure.output;
    if (!DOWNLOAD_FAILED.test(out)) return null;
    if (!ctx.plan.phases.some((p) => p.commands.some((c) => /^cmake\s.*-S\s/.test(c)))) return null;
    const site = downloadSite(ctx);
    if (!site) return null;
    const { text } = readTextConfined(buildTreeRoot(ctx), posix.join(ctx.plan.dir, site.file));
    if (text === null) return null;
    // the optional part around it, past the project's own `if(result)` checks
    const name = enclosingSwitch(text, site.line, (v) => OPTIONAL_PART.test(v));
    if (!name) return null;
    return {
      key: name,
      reason: `${site.what} at ${site.file}:${site.line} downloads code when ${name} is on`,
    };
  },
  async apply(ctx, match) {
    const flag = `-D${match.key}=OFF`;
    const plan = mapCommands(ctx.plan, (c) =>
      /^cmake\s.*-S\s/.test(c) && !c.includes(flag) ? `${c} ${flag}` : c,
    );
    return {
      applied: true,
      description: `configure with ${flag} (${match.reason}; builds have no network)`,
      commands: [],
      plan,
    };
  },
};
