import { join } from 'node:path';
import { FunctionNode } from '../../engine/nodes/FunctionNode.ts';
import { decideVerdict } from '../../verify/decideVerdict.ts';
import { type ElfFacts, inspectFileIn } from '../../verify/inspectFile.ts';
import { cargoHostUnits } from '../cargoHostUnits.ts';
import { findBuildOutputs } from '../findBuildOutputs.ts';
import { BuildFixNode } from '../nodeNames.ts';
import { nothingToProve } from '../nothingToProve.ts';
import { rankArtifacts } from '../outputs/rankArtifacts.ts';
import { portServices } from '../PortServices.ts';
import type { PortState } from '../PortState.ts';
import { DESTDIR_PREFIX, SANDBOX_DEST, SANDBOX_SRC } from '../planFromAnalysis.ts';
import { routeVerifyResult } from '../routes/routeVerifyResult.ts';
import { withAudit } from './audit.ts';
import { ensureBuildTree } from './ensureBuildTree.ts';
import { makeError, recordError } from './recordError.ts';
import { scriptedOf } from './scriptedAnalysis.ts';

/**
 * Reads the ELF headers of everything the build made (in the tree and in DESTDIR) and decides by
 * script whether it is riscv64. Only a wrong-architecture verdict is a failure (for the fixer);
 * a build that made no object at all stays a success that is not verified.
 */
export const verifyNode = FunctionNode<PortState>({
  targets: [BuildFixNode.fix, '__end__'],
  then: (s) => routeVerifyResult(s.context),
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    svc.progress({ type: 'node', node: BuildFixNode.verify });
    const sandbox = await svc.sandbox.get();
    const rebuilt = await ensureBuildTree(svc, sandbox, s.context, ctx, BuildFixNode.verify);
    const state: PortState = { ...s.context, ...rebuilt };
    const facts: ElfFacts[] = [];
    for (const [root, prefix, original, builtAt] of [
      [join(sandbox.workspace, 'src'), '', state.source.dir ?? null, SANDBOX_SRC],
      [join(sandbox.workspace, 'dest'), DESTDIR_PREFIX, null, SANDBOX_DEST],
    ] as const) {
      // the build wrote these trees: read inside them only, and say why one was not walked
      const refused = (reason: string) => svc.progress({ type: 'note', message: `not verified: ${reason}` });
      const outputs = await findBuildOutputs(root, original, refused);
      // build scripts and proc-macros are not artifacts (x86_64 ones in accelerated mode)
      const hostUnits = state.plan?.buildSystem === 'cargo' ? cargoHostUnits(outputs) : new Set<string>();
      for (const rel of outputs.filter((o) => !hostUnits.has(o)))
        facts.push(await inspectFileIn(root, rel, `${prefix}${rel}`, builtAt));
    }
    const verdict = decideVerdict(
      facts,
      state.plan?.expectedArtifacts.length ? { expected: state.plan.expectedArtifacts } : {},
    );
    const artifacts = rankArtifacts(facts);
    const verification = {
      verdict: verdict.verdict,
      reason: nothingToProve(scriptedOf(state)?.compiledSources, facts) ?? verdict.reason,
    };
    const audit = withAudit(state, BuildFixNode.verify, verdict.verdict, verdict.reason);
    if (verdict.foreign.length > 0) {
      const error = makeError({
        node: BuildFixNode.verify,
        output: `wrong architecture: ${verdict.reason}`,
        category: 'ARCHITECTURE',
      });
      return {
        context: {
          ...rebuilt,
          ...recordError(state, error),
          buildStatus: 'FAILED',
          verification,
          artifacts,
          audit,
        },
      };
    }
    return { context: { ...rebuilt, buildStatus: 'SUCCESS', verification, artifacts, audit } };
  },
});
