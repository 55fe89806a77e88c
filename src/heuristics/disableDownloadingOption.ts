import { posix } from 'node:path';
import { readTextConfined } from '../fs/index.ts';
import { buildTreeRoot } from './buildTreeRoot.ts';
import { mapCommands } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** CMake's own modules that download at configure time. */
const DOWNLOAD_CALL =
  /^\s*([^\s:]*CMakeLists\.txt|[^\s:]+\.cmake):(\d+) \((FetchContent_MakeAvailable|FetchContent_Populate|ExternalProject_Add|file)\)/m;
const DOWNLOAD_FAILED =
  /Could not resolve host|Couldn't resolve host|Failed to download|download failed|status_code: [1-9]|Build step for \w+ failed/i;
/** Switches of parts a package can be built without (tests, benchmarks, examples, docs, fuzzers). */
export const OPTIONAL_PART = /TEST|BENCH|EXAMPLE|DEMO|DOC|FUZZ/i;

/**
 * The innermost `if(VAR)` around a line of a CMake file, where VAR is a plain variable: the
 * switch that brings the download in.
 */
export function enclosingSwitch(cmake: string, line: number): string | null {
  const stack: (string | null)[] = [];
  const lines = cmake.split('\n').slice(0, line - 1);
  for (const raw of lines) {
    const text = raw.replace(/#.*$/, '').trim();
    const opened = /^if\s*\(\s*(?:\$\{)?([A-Za-z_][A-Za-z0-9_]*)\}?\s*\)/i.exec(text);
    if (opened) stack.push(opened[1] ?? null);
    else if (/^if\s*\(/i.test(text)) stack.push(null);
    else if (/^endif\s*\(/i.test(text)) stack.pop();
  }
  for (let i = stack.length - 1; i >= 0; i--) if (stack[i]) return stack[i] as string;
  return null;
}

/**
 * A CMake configure step that downloads code (googletest through FetchContent, a benchmark
 * library through ExternalProject) fails without the network. When the download sits inside
 * `if(SWITCH)` and SWITCH is an optional part (tests, benchmarks, examples, docs), configure with
 * `-DSWITCH=OFF`: the rest of the package still builds, and the recipe records the switch.
 */
export const disableDownloadingOption: RecoveryHeuristic = {
  name: 'disable-downloading-option',
  description: 'turn off the optional CMake part whose configure step downloads code',
  match(ctx) {
    const out = ctx.failure.output;
    const call = DOWNLOAD_CALL.exec(out);
    if (!call || !DOWNLOAD_FAILED.test(out)) return null;
    const named = call[1] as string;
    if (named.startsWith('/')) return null;
    const { text } = readTextConfined(buildTreeRoot(ctx), posix.join(ctx.plan.dir, named));
    if (text === null) return null;
    const name = enclosingSwitch(text, Number(call[2]));
    if (!name || !OPTIONAL_PART.test(name)) return null;
    if (!ctx.plan.phases.some((p) => p.commands.some((c) => /^cmake\s.*-S\s/.test(c)))) return null;
    return { key: name, reason: `${call[3]} at ${call[1]}:${call[2]} downloads code when ${name} is on` };
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
