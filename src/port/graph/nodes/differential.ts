import { FunctionNode } from '../../../engine/index.ts';
import { compareSmokeRuns, compareTestRuns, notInBoth } from '../../differential/compareRuns.ts';
import type { DifferentialRecord } from '../../differential/DifferentialRecord.ts';
import { pairHazardEvidence } from '../../differential/pairHazardEvidence.ts';
import { runX86Side, type X86SideResult } from '../../differential/runX86Side.ts';
import { portServices } from '../../run/PortServices.ts';
import type { PortState } from '../../state/PortState.ts';
import { PortNode } from '../nodeNames.ts';
import { withAudit } from './audit.ts';
import { updateCacheEntry } from './updateCacheEntry.ts';

/**
 * Differential tests (`--differential`): the same plan built for x86_64, its tests and smoke runs
 * held against the riscv64 ones, per test. A failure only on riscv64 is the port's problem and
 * is marked in the verdict text; the verdict itself stays (the ELF proof is the verdict).
 */
export const differentialNode = FunctionNode<PortState>({
  then: PortNode.replay,
  run: async (s, ctx) => {
    const svc = portServices(ctx.services);
    svc.progress({ type: 'node', node: PortNode.differential });
    const state = s.context;
    const skip = !state.options.differential
      ? 'not asked for (--differential runs them)'
      : state.verification?.verdict !== 'verified'
        ? 'the port is not verified'
        : null;
    if (skip) return { context: { audit: withAudit(state, PortNode.differential, 'skipped', skip) } };
    const started = Date.now();
    // the x86_64 side is checkpointed: a resumed port does not build it twice
    const x86 =
      (ctx.inFlight as X86SideResult | undefined) ??
      (await (async () => {
        const result = await runX86Side(svc, state, ctx);
        await ctx.saveInFlight(result);
        return result;
      })());
    const record = differentialRecord(state, x86, Date.now() - started);
    svc.progress({ type: 'note', message: `differential tests: ${record.reason}` });
    const verification =
      record.riscv64Only > 0 && state.verification
        ? {
            ...state.verification,
            reason: `${state.verification.reason}; ${record.riscv64Only} test or smoke run(s) fail only on riscv64 (differential tests)`,
          }
        : state.verification;
    await updateCacheEntry(svc, state, (entry) => ({
      ...entry,
      ...(verification ? { verification } : {}),
      differential: {
        ran: record.ran,
        reason: record.reason,
        riscv64Only: record.riscv64Only,
        at: record.at,
      },
    }));
    return {
      context: {
        differential: record,
        verification,
        timings: { ...state.timings, differential: Date.now() - started },
        audit: withAudit(
          state,
          PortNode.differential,
          record.ran ? 'compared' : 'not compared',
          record.reason,
        ),
      },
    };
  },
});

export function differentialRecord(
  state: PortState,
  x86: X86SideResult,
  durationMs: number,
): DifferentialRecord {
  const base = {
    at: new Date().toISOString(),
    durationMs,
    x86BuildMs: x86.buildMs,
    x86TestMs: x86.testMs,
    ...(x86.provisionMs ? { provisionMs: x86.provisionMs } : {}),
  };
  if (x86.error)
    return { ...base, ran: false, reason: x86.error, rows: [], riscv64Only: 0, x86Only: 0, hazards: [] };
  const rows = [
    ...compareTestRuns(state.tests, x86.tests),
    ...compareSmokeRuns(state.smokeTests, x86.smokeTests),
  ];
  const riscv64Only = rows.filter((r) => r.outcome === 'fails only on riscv64').length;
  const x86Only = rows.filter((r) => r.outcome === 'fails only on x86_64').length;
  const hazards = riscv64Only > 0 ? pairHazardEvidence(state.hazardWarnings, state.findings) : [];
  const count = (o: string) => rows.filter((r) => r.outcome === o).length;
  const absent = notInBoth(state.smokeTests, x86.smokeTests);
  const left = absent.length ? `; not compared, not in both builds: ${absent.join(', ')}` : '';
  const reason =
    rows.length === 0
      ? `nothing to compare (no tests ran and no program was smoke-run on both)${left}`
      : `${rows.length} compared: ${count('passes on both')} pass on both, ${count('fails on both')} fail on both, ${riscv64Only} fail only on riscv64, ${x86Only} fail only on x86_64${left}`;
  return { ...base, ran: rows.length > 0, reason, rows, riscv64Only, x86Only, hazards };
}
