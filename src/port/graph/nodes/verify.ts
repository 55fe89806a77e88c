import { join } from 'node:path';
import { FunctionNode } from '../../../engine/index.ts';
import { decideVerdict, type ElfFacts, inspectAndDigestIn } from '../../../verify/index.ts';
import { rankArtifacts } from '../../outputs/rankArtifacts.ts';
import { portServices } from '../../run/PortServices.ts';
import type { ArtifactRecord, PortState, ShippedObject } from '../../state/PortState.ts';
import { cargoHostUnits } from '../../steps/cargoHostUnits.ts';
import { findBuildOutputs } from '../../steps/findBuildOutputs.ts';
import { nothingToProve } from '../../steps/nothingToProve.ts';
import { DESTDIR_PREFIX, SANDBOX_DEST, SANDBOX_SRC } from '../../steps/planFromAnalysis.ts';
import { indexShippedObjects } from '../../steps/shippedObjects.ts';
import { BuildFixNode } from '../nodeNames.ts';
import { routeVerifyResult } from '../routes/routeVerifyResult.ts';
import { withAudit } from './audit.ts';
import { ensureBuildTree } from './ensureBuildTree.ts';
import { makeError, recordError } from './recordError.ts';
import { repairNothingProven } from './repairNothingProven.ts';
import { scriptedOf } from './scriptedAnalysis.ts';

/** Shipped objects kept in the state (a source of prebuilt test objects ships thousands). */
const MAX_SHIPPED_RECORDED = 200;

/**
 * Reads the ELF headers of everything the build made (in the tree and in DESTDIR) and decides by
 * script whether it is riscv64; objects whose content the source shipped, wherever the build put
 * them, are not its outputs. Only a wrong-architecture verdict is a failure (for the fixer); a
 * build that proved nothing goes to the heuristics that build another way (repairNothingProven,
 * back to the build with their plan); without one it stays a success that is not verified. Each artifact keeps the
 * SHA-256 of the bytes judged, so finish can tell whether what it copies out is what was judged.
 */
export const verifyNode = FunctionNode<PortState>({
  targets: [BuildFixNode.fix, BuildFixNode.build, '__end__'],
  then: (s) => routeVerifyResult(s.context),
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    svc.progress({ type: 'node', node: BuildFixNode.verify });
    const sandbox = await svc.sandbox.get();
    const rebuilt = await ensureBuildTree(svc, sandbox, s.context, ctx, BuildFixNode.verify);
    const state: PortState = { ...s.context, ...rebuilt };
    const facts: ElfFacts[] = [];
    const digests = new Map<string, { sha256: string; size: number }>();
    const shippedInSource: ShippedObject[] = [];
    const refused = (reason: string) => svc.progress({ type: 'note', message: `not verified: ${reason}` });
    // what the source shipped, by content: copied to another name or into DESTDIR, still not built
    const shipped = indexShippedObjects(state.source.dir ?? null, refused);
    for (const [root, prefix, builtAt] of [
      [join(sandbox.workspace, 'src'), '', SANDBOX_SRC],
      [join(sandbox.workspace, 'dest'), DESTDIR_PREFIX, SANDBOX_DEST],
    ] as const) {
      // the build wrote these trees: read inside them only, and say why one was not walked
      const outputs = await findBuildOutputs(root, shipped, refused);
      for (const o of outputs.shipped) shippedInSource.push({ path: `${prefix}${o.path}`, from: o.from });
      // build scripts and proc-macros are not artifacts (x86_64 ones in accelerated mode)
      const hostUnits =
        state.plan?.buildSystem === 'cargo' ? cargoHostUnits(outputs.built) : new Set<string>();
      for (const rel of outputs.built.filter((o) => !hostUnits.has(o))) {
        const inspected = await inspectAndDigestIn(root, rel, `${prefix}${rel}`, builtAt);
        facts.push(inspected.facts);
        if (inspected.sha256 !== null && inspected.size !== null)
          digests.set(inspected.facts.path, { sha256: inspected.sha256, size: inspected.size });
      }
    }
    const verdict = decideVerdict(
      facts,
      state.plan?.expectedArtifacts.length ? { expected: state.plan.expectedArtifacts } : {},
    );
    // the bytes judged, so finish can tell a copy that is not what was verified
    const artifacts: ArtifactRecord[] = rankArtifacts(facts).map((a) => ({ ...a, ...digests.get(a.path) }));
    const moved = shippedInSource.filter((s) => s.path !== s.from);
    const shippedNote = moved.length
      ? `; ${moved.length} object(s) shipped in the source and copied by the build not counted as built (${moved
          .slice(0, 3)
          .map((s) => `${s.path}, from ${s.from}`)
          .join('; ')}${moved.length > 3 ? '; …' : ''})`
      : '';
    const noCompiledCode = nothingToProve(scriptedOf(state)?.compiledSources, facts);
    const verification = {
      verdict: verdict.verdict,
      reason: `${noCompiledCode ?? verdict.reason}${shippedNote}`,
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
          shippedInSource: shippedInSource.slice(0, MAX_SHIPPED_RECORDED),
          audit,
        },
      };
    }
    if (verdict.verdict !== 'verified' && noCompiledCode === null) {
      const repaired = await repairNothingProven(svc, sandbox, state, verification.reason, ctx.signal);
      if (repaired)
        return {
          context: {
            ...rebuilt,
            ...repaired,
            buildStatus: 'BUILDING',
            verification,
            audit: withAudit(
              state,
              BuildFixNode.verify,
              'nothing proven',
              `building again: ${verification.reason}`,
            ),
          },
        };
    }
    return {
      context: {
        ...rebuilt,
        buildStatus: 'SUCCESS',
        verification,
        artifacts,
        shippedInSource: shippedInSource.slice(0, MAX_SHIPPED_RECORDED),
        audit,
      },
    };
  },
});
