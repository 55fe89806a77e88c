import type { PortState } from '../state/PortState.ts';
import type { TestCase } from '../testResults/TestCase.ts';
import type { DifferentialOutcome, DifferentialRow } from './DifferentialRecord.ts';

type Tests = NonNullable<PortState['tests']>;
type Smoke = PortState['smokeTests'];

function outcomeOf(riscvFailed: boolean, x86Failed: boolean): DifferentialOutcome {
  if (riscvFailed && x86Failed) return 'fails on both';
  if (riscvFailed) return 'fails only on riscv64';
  if (x86Failed) return 'fails only on x86_64';
  return 'passes on both';
}

function row(
  kind: DifferentialRow['kind'],
  name: string,
  riscvFailed: boolean,
  x86Failed: boolean,
  riscvOutput: string | undefined,
  x86Output: string | undefined,
): DifferentialRow {
  const outcome = outcomeOf(riscvFailed, x86Failed);
  const output =
    outcome === 'fails only on x86_64' ? x86Output : outcome === 'passes on both' ? undefined : riscvOutput;
  return { kind, name, outcome, ...(output ? { output } : {}) };
}

/**
 * The two test runs held against each other: the run as a whole (its exit status), then every
 * test both harness outputs name and neither skipped. A test one side did not report is left out.
 */
export function compareTestRuns(riscv: Tests | null, x86: Tests | null): DifferentialRow[] {
  if (!riscv?.ran || !x86?.ran) return [];
  const rows: DifferentialRow[] = [
    row(
      'test run',
      'the test phase (exit status)',
      riscv.exitCode !== 0,
      x86.exitCode !== 0,
      riscv.summary,
      x86.summary,
    ),
  ];
  const other = new Map<string, TestCase>((x86.cases ?? []).map((c) => [c.name, c]));
  for (const mine of riscv.cases ?? []) {
    const theirs = other.get(mine.name);
    // the whole-run stand-in of a harness that names no test is the first row already
    if (
      !theirs ||
      mine.status === 'skip' ||
      theirs.status === 'skip' ||
      mine.name.startsWith('(the test run')
    )
      continue;
    rows.push(
      row('test', mine.name, mine.status === 'fail', theirs.status === 'fail', mine.output, theirs.output),
    );
  }
  return rows;
}

/**
 * The same smoke commands on both sides, by exit status (the first try of each program decides).
 * A program one build does not hold at that path is not compared (`notInBoth` lists it).
 */
export function compareSmokeRuns(riscv: Smoke, x86: Smoke): DifferentialRow[] {
  const other = new Map(x86.map((s) => [s.command, s]));
  const rows: DifferentialRow[] = [];
  for (const mine of riscv) {
    const theirs = other.get(mine.command);
    if (!theirs || mine.absent || theirs.absent) continue;
    const riscvOut = `exit ${mine.exitCode}${mine.output ? `: ${mine.output}` : ''}`;
    const x86Out = `exit ${theirs.exitCode}${theirs.output ? `: ${theirs.output}` : ''}`;
    rows.push(row('smoke', mine.command, mine.exitCode !== 0, theirs.exitCode !== 0, riscvOut, x86Out));
  }
  return rows;
}

/** The smoke-run programs one of the two builds does not hold, so neither side's run is compared. */
export function notInBoth(riscv: Smoke, x86: Smoke): string[] {
  const absent = new Set([...riscv, ...x86].filter((s) => s.absent).map((s) => s.program));
  return [...absent].sort();
}
