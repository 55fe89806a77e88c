import { lstat, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readArArchive, readElf, readRiscvAttributes } from '../verify/index.ts';
import type { GateResult } from './OptimizationReport.ts';
import type { GatedArtifact, TestOutcome, TuneWorkbench } from './TuneWorkbench.ts';

/** Artifacts read per tune, at most: the port's most important ones. */
export const MAX_GATED_ARTIFACTS = 8;
const MAX_ARTIFACT_BYTES = 256 * 1024 * 1024;

/**
 * The artifacts gate: every artifact of the verified port is there again, riscv64, and when the
 * tune asks for ISA extensions, the `.riscv.attributes` of each (of each member of an archive)
 * records them. Read on the host from copies, with rvport's own ELF readers.
 */
export async function gateArtifacts(
  bench: Pick<TuneWorkbench, 'sandbox'>,
  artifacts: readonly GatedArtifact[],
  requiredExtensions: readonly string[],
): Promise<GateResult> {
  if (artifacts.length === 0)
    return { name: 'artifacts', passed: false, detail: 'the port has no riscv64 artifact to check' };
  const staging = await mkdtemp(join(tmpdir(), 'rvport-tune-'));
  try {
    const checked: string[] = [];
    for (const [i, artifact] of artifacts.slice(0, MAX_GATED_ARTIFACTS).entries()) {
      const host = join(staging, String(i));
      try {
        await bench.sandbox.copyOut(artifact.inside, host);
      } catch (error) {
        return fail(`${artifact.path} was not built (${(error as Error).message.split('\n')[0]})`);
      }
      const stats = await lstat(host);
      if (!stats.isFile()) return fail(`${artifact.path} is not a regular file`);
      if (stats.size > MAX_ARTIFACT_BYTES) return fail(`${artifact.path} is larger than 256 MiB`);
      const problem = checkObject(artifact.path, new Uint8Array(await readFile(host)), requiredExtensions);
      if (problem) return fail(problem);
      checked.push(artifact.path);
    }
    const isa = requiredExtensions.length
      ? `, each recording ${requiredExtensions.join(', ')} in Tag_RISCV_arch`
      : '';
    return { name: 'artifacts', passed: true, detail: `${checked.length} riscv64 artifacts${isa}` };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

const fail = (detail: string): GateResult => ({ name: 'artifacts', passed: false, detail });

/** Why one file fails the gate, or null. */
export function checkObject(path: string, bytes: Uint8Array, required: readonly string[]): string | null {
  const archive = readArArchive(bytes);
  if (archive.error === null || archive.members.length > 0) {
    const objects = archive.members.filter((m) => m.data.length >= 4 && readElf(m.data).ok);
    if (objects.length === 0) return `${path} has no ELF member`;
    for (const member of objects) {
      const problem = checkElf(`${path}(${member.name})`, member.data, required);
      if (problem) return problem;
    }
    return null;
  }
  return checkElf(path, bytes, required);
}

function checkElf(path: string, bytes: Uint8Array, required: readonly string[]): string | null {
  const elf = readElf(bytes);
  if (!elf.ok) return `${path}: ${elf.reason}`;
  if (elf.machine !== 'riscv64') return `${path} is ${elf.machine}, not riscv64`;
  if (required.length === 0) return null;
  const attributes = readRiscvAttributes(bytes);
  if (!attributes.ok) return `${path}: ${attributes.reason}, so its ISA is not shown`;
  const missing = required.filter((e) => !attributes.extensions.includes(e));
  if (missing.length)
    return `${path} records ${attributes.arch ?? 'no ISA'}, without ${missing.join(', ')} (the flags did not reach this build)`;
  return null;
}

/** The tests gate: the tune's tests pass as the baseline's did (no test lost). */
export function gateTests(baseline: TestOutcome, tune: TestOutcome): GateResult {
  if (!baseline.ran)
    return { name: 'tests', passed: true, detail: `not run: ${baseline.summary.split('\n')[0]}` };
  if (!tune.ran)
    return { name: 'tests', passed: false, detail: `the tests did not run: ${tune.summary.split('\n')[0]}` };
  const counts = `${tune.passed} passed, ${tune.failed} failed (baseline ${baseline.passed} passed, ${baseline.failed} failed)`;
  if (baseline.exitCode === 0 && tune.exitCode !== 0)
    return { name: 'tests', passed: false, detail: `the tests fail (exit ${tune.exitCode}): ${counts}` };
  if (tune.failed > baseline.failed || tune.passed < baseline.passed)
    return { name: 'tests', passed: false, detail: `fewer tests pass: ${counts}` };
  return { name: 'tests', passed: true, detail: counts };
}

/** The workload gate: the tune's workload output is the baseline's. */
export function gateWorkload(reference: string, tune: string): GateResult {
  return reference === tune
    ? { name: 'workload', passed: true, detail: `output identical to the baseline's (${tune})` }
    : {
        name: 'workload',
        passed: false,
        detail: `output differs from the baseline's: ${tune}, baseline ${reference}`,
      };
}
