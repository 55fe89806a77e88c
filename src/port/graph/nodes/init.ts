import { tmpdir } from 'node:os';
import { type Analysis, analyzeTree } from '../../../analysis/index.ts';
import { FunctionNode } from '../../../engine/index.ts';
import type { AcquiredSource } from '../../../sources/index.ts';
import {
  acquireDependencies,
  acquireSource,
  DEFAULT_FETCH_RULES,
  fetchRulesFor,
  headTree,
  isSourceError,
  parseSource,
} from '../../../sources/index.ts';
import { type PortServices, portServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';
import { debianKnowledge } from '../../steps/debianKnowledge.ts';
import { debianSourceHint } from '../../steps/debianSourceHint.ts';
import { sourceWarnings } from '../../steps/sourceWarnings.ts';
import { PortNode } from '../nodeNames.ts';
import { routeInitToNext } from '../routes/routeInitToNext.ts';
import { withAudit } from './audit.ts';
import { makeError, recordError } from './recordError.ts';

/**
 * Debian's knowledge for a `debian:` source: its Build-Depends and the patches of its series
 * that apply (the port's first patches), said in the progress.
 */
async function debianStart(
  acquired: AcquiredSource,
  project: Analysis['project'],
  svc: PortServices,
): Promise<Partial<PortState>> {
  const packaged = await debianKnowledge(acquired, tmpdir());
  const index = packaged?.debian.buildDepends.length ? null : await svc.debianSources?.();
  const hint = index ? debianSourceHint(acquired, project, index) : null;
  const known = hint
    ? {
        debian: { ...hint, problems: [...(packaged?.debian.problems ?? []), ...(hint.problems ?? [])] },
        patches: packaged?.patches ?? [],
      }
    : packaged;
  if (!known) return {};
  const { debian, patches } = known;
  const skipped = debian.patchesSkipped.length ? `, ${debian.patchesSkipped.length} skipped` : '';
  for (const problem of debian.problems ?? []) svc.progress({ type: 'note', message: problem });
  svc.progress({
    type: 'note',
    message: `Debian's packaging: ${debian.buildDepends.length} Build-Depends, ${debian.patchesApplied.length} patches apply${skipped}`,
  });
  return { debian, patches };
}

/** Acquires the source as a git tree (commit recorded) and runs the scripted analysis. No LLM. */
export const initNode = FunctionNode<PortState>({
  targets: [PortNode.escalate, PortNode.cachedRecipe, PortNode.analyst],
  then: (s) => routeInitToNext(s.context),
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    const state = s.context;
    svc.progress({ type: 'node', node: PortNode.init });
    const started = Date.now();
    try {
      const acquired = await acquireSource(parseSource(state.source.spec), {
        workDir: svc.sourcesDir,
        reuse: !state.options.force,
        signal: ctx.signal,
        fetch: fetchRulesFor(
          state.source.spec,
          svc.sourceFetch ?? { source: state.source.spec, rules: DEFAULT_FETCH_RULES },
        ),
        suite: svc.suite,
        ...(svc.mirror ? { mirror: svc.mirror } : {}),
        log: (line) => svc.progress({ type: 'note', message: line }),
      });
      const tree = await headTree(acquired.gitDir, { signal: ctx.signal });
      const warnings = sourceWarnings(acquired);
      for (const w of warnings) svc.progress({ type: 'note', message: `warning: ${w}` });
      const contents = await svc.contents();
      const analysis = analyzeTree(acquired.dir, {
        name: acquired.name,
        contents,
        contentsUnavailableReason: contents ? null : 'the Debian Contents index could not be loaded',
      });
      // after the analysis: the languages and the build system decide what the mode may be
      const choice = svc.chooseMode?.(tree, {
        languages: analysis.extraLanguages,
        buildSystem: analysis.buildSystem?.type,
      });
      if (choice) svc.progress({ type: 'note', message: `sandbox mode ${choice.mode}: ${choice.reason}` });
      const { findings, ...scripted } = analysis;
      // dependencies are part of the source: fetched and checked now, host-side, or not at all
      const fetchedDependencies = svc.dependencySources
        ? await acquireDependencies(
            acquired.dir,
            { system: analysis.buildSystem.type, dir: analysis.buildSystem.dir },
            svc.dependencySources,
            {
              home: svc.home,
              signal: ctx.signal,
              log: (line) => svc.progress({ type: 'note', message: line }),
            },
          )
        : null;
      const rust = svc.chooseRust?.(analysis.buildSystem.type, analysis.buildSystem.details) ?? null;
      if (rust) svc.progress({ type: 'note', message: `Rust: ${rust}` });
      const modeReason = choice && rust ? `${choice.reason}; Rust: ${rust}` : choice?.reason;
      const debian = await debianStart(acquired, analysis.project, svc);
      return {
        context: {
          source: {
            ...state.source,
            dir: acquired.dir,
            commit: acquired.commit,
            tree,
            ...(acquired.kind === 'git' ? { url: acquired.origin } : {}),
            ...(warnings.length ? { warnings } : {}),
          },
          ...(choice
            ? {
                options: {
                  ...state.options,
                  mode: choice.mode,
                  modeReason,
                  ...(choice.evidence ? { modeEvidence: choice.evidence } : {}),
                },
              }
            : {}),
          scripted,
          findings,
          ...(fetchedDependencies ? { fetchedDependencies } : {}),
          ...debian,
          buildStatus: 'PLANNING',
          timings: { ...state.timings, init: Date.now() - started },
          audit: withAudit(
            state,
            PortNode.init,
            'analysed',
            `${analysis.buildSystem.type} in ${analysis.buildSystem.dir}, ${findings.length} findings`,
          ),
        },
      };
    } catch (error) {
      if (!isSourceError(error)) throw error;
      const record = makeError({
        node: PortNode.init,
        output: error.message,
        category: 'SOURCE_UNAVAILABLE',
      });
      return {
        context: {
          ...recordError(state, record),
          buildStatus: 'FAILED',
          escalationReason: `the source could not be acquired: ${error.message}`,
          timings: { ...state.timings, init: Date.now() - started },
          audit: withAudit(state, PortNode.init, 'source failed', error.message),
        },
      };
    }
  },
});
