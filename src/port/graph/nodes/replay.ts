import { FunctionNode } from '../../../engine/index.ts';
import { writePortOutputs } from '../../outputs/writePortOutputs.ts';
import { replayDoubt } from '../../replay/replayDoubt.ts';
import { replayPort } from '../../replay/replayPort.ts';
import { portServices } from '../../run/PortServices.ts';
import type { PortState, ReplayRecord } from '../../state/PortState.ts';
import { PortNode } from '../nodeNames.ts';
import { routeReplayToNext } from '../routes/routeReplayToNext.ts';
import { withAudit } from './audit.ts';
import { updateCacheEntry } from './updateCacheEntry.ts';

/**
 * A port replays by default when its build took less than this (the replay costs about one
 * more build, in a fresh instance): 10 minutes.
 */
export const REPLAY_AUTO_MAX_BUILD_MS = 10 * 60 * 1000;

/** How long the final build took: the commands of the last attempt (the ones build.sh repeats). */
export function lastBuildMs(state: PortState): number {
  const last = Math.max(0, ...state.executed.map((e) => e.attempt));
  return state.executed.filter((e) => e.attempt === last).reduce((sum, e) => sum + e.durationMs, 0);
}

/**
 * Why a port does not replay (null: it does). By default (auto) a port replays when there is
 * doubt that build.sh alone rebuilds what it built (replayDoubt: a repair, an LLM or cached plan,
 * several attempts, commands outside the plan, patches `patch` may apply differently) and the
 * build took under 10 minutes; a build that was itself one clean run of the recipe is not run
 * again (that replay would repeat the same commands on the same source and images).
 */
export function replaySkipReason(state: PortState): string | null {
  const wanted = state.options.replay ?? 'auto';
  if (wanted === 'off') return 'not asked for (--no-replay)';
  if (state.verification?.verdict !== 'verified') return 'the port is not verified';
  if (wanted === 'on') return null;
  if (replayDoubt(state).length === 0)
    return "not needed: the verified build was one run of the recipe's own plan from a fresh copy of the source, unrepaired, which is what build.sh does (--replay replays it)";
  const took = lastBuildMs(state);
  if (took > REPLAY_AUTO_MAX_BUILD_MS)
    return `the build took ${Math.round(took / 60_000)} min, longer than the ${REPLAY_AUTO_MAX_BUILD_MS / 60_000} min below which a port replays by default (--replay replays it)`;
  return null;
}

/**
 * The port's last step: `rvport replay` of its own outputs (build.sh alone, in a fresh instance,
 * on a fresh copy of the source), or why not. The outcome goes into the state, the report and
 * the cache entry.
 */
export const replayNode = FunctionNode<PortState>({
  targets: [PortNode.optimize, '__end__'],
  then: (s) => routeReplayToNext(s.context),
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    svc.progress({ type: 'node', node: PortNode.replay });
    const state = s.context;
    const skip = replaySkipReason(state);
    const started = Date.now();
    let record: ReplayRecord;
    if (skip) {
      record = {
        replayed: 'skipped',
        reason: skip,
        at: new Date().toISOString(),
        mode: state.options.mode,
        durationMs: 0,
        compared: 0,
        identical: 0,
      };
      if (state.verification?.verdict === 'verified')
        await updateCacheEntry(svc, state, (entry) => ({ ...entry, replay: record }));
    } else {
      // build.sh, packages.txt and state.json as the port ends: what the replay reads
      const written = await writePortOutputs(state, svc.outDir, { package: false });
      if (written.scriptError) {
        record = {
          replayed: 'no',
          reason: written.scriptError,
          at: new Date().toISOString(),
          mode: state.options.mode,
          durationMs: 0,
          compared: 0,
          identical: 0,
        };
        await updateCacheEntry(svc, state, (entry) => ({ ...entry, replay: record }));
      } else {
        try {
          const result = await replayPort({
            dir: svc.outDir,
            // a port built on a --target machine replays here, in the mode replayPort chooses
            ...(state.options.mode === 'native' ? {} : { mode: state.options.mode }),
            suite: svc.suite,
            ...(svc.sourceFetch ? { sourceFetch: svc.sourceFetch } : {}),
            env: { ...process.env, RVPORT_HOME: svc.home },
            signal: ctx.signal,
            progress: (message) => svc.progress({ type: 'note', message: `replay: ${message}` }),
          });
          record = result.record;
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          record = {
            replayed: 'no',
            reason: `the replay failed: ${(error as Error).message}`,
            at: new Date().toISOString(),
            mode: state.options.mode,
            durationMs: Date.now() - started,
            compared: 0,
            identical: 0,
          };
          await updateCacheEntry(svc, state, (entry) => ({ ...entry, replay: record }));
        }
      }
    }
    return {
      context: {
        replay: record,
        timings: { ...state.timings, ...(skip ? {} : { replay: Date.now() - started }) },
        audit: withAudit(state, PortNode.replay, `replayed: ${record.replayed}`, record.reason),
      },
    };
  },
});
