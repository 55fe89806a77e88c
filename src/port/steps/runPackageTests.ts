import { randomBytes } from 'node:crypto';
import { describeSubmodule, missingSubmoduleIn } from '../../heuristics/index.ts';
import type { Sandbox } from '../../sandbox/index.ts';
import type { BuildPlan, PortState } from '../state/PortState.ts';
import { parseTestResults, type TestResultFile } from '../testResults/parseTestResults.ts';
import { parseTestSummary } from '../testResults/parseTestSummary.ts';
import type { TestCase } from '../testResults/TestCase.ts';
import { planCommandContext } from './planFromAnalysis.ts';

export type TestRunRecord = NonNullable<PortState['tests']>;

export interface PackageTestRun {
  plan: BuildPlan | null;
  /** The acquired source on the host (to name a missing submodule); absent: not looked for. */
  sourceDir?: string;
  timeoutMs: number;
  logFile: string;
  signal?: AbortSignal;
  onCommand?(command: string): void;
  /** False: the tests are not run (a timing-only run). */
  runTests?: boolean;
}

/** The top-level make's answer to a test target its Makefile lacks (a sub-make's is a real failure). */
const ABSENT_TARGET = /^make: \*\*\* No rule to make target '(check|test)'\.\s+Stop\.$/gm;
/** The test targets a command asks make for (`make -j4 check || make -j4 test`: check, test). */
const ASKED_TARGET = /\bmake\b[^|&;]*?\s(check|test)\b/g;

/** Harness files read after the run, at most (with their size capped in the sandbox). */
const MAX_RESULT_FILES = 300;
const MAX_RESULT_FILE_BYTES = 65_536;

/**
 * Runs the plan's test phase once in `sandbox` (the riscv64 instance of finish, or the x86_64 one
 * of the differential tests), stopping at the first failing command: counts from the harness's
 * summary, per-test results from its lines and files, and the tail of the output.
 */
export async function runPackageTests(sandbox: Sandbox, run: PackageTestRun): Promise<TestRunRecord> {
  const commands = run.plan?.phases.find((p) => p.name === 'test')?.commands ?? [];
  if (run.runTests === false)
    return { ran: false, passed: 0, failed: 0, exitCode: null, summary: 'tests not run (a timing-only run)' };
  if (commands.length === 0)
    return { ran: false, passed: 0, failed: 0, exitCode: null, summary: 'the build system has no test step' };
  let output = '';
  let exitCode = 0;
  let cut: string | undefined;
  const startedAt = new Date().toISOString();
  for (const command of commands) {
    run.onCommand?.(command);
    const result = await sandbox.run(command, {
      ...planCommandContext(run.plan),
      timeoutMs: run.timeoutMs,
      logFile: run.logFile,
      ...(run.signal ? { signal: run.signal } : {}),
    });
    output += `${result.stdout}\n${result.stderr}\n`;
    if (result.timedOut) {
      cut = command;
      output += `(the tests ran past the time limit of ${run.timeoutMs / 1000} s: cut; --test-timeout raises it)\n`;
    }
    if (result.exitCode !== 0) {
      exitCode = result.exitCode;
      break;
    }
  }
  // the plan asked for a test target the build's own Makefile does not have: no test step, not a failure
  const absent = exitCode !== 0 ? absentTarget(commands, output) : undefined;
  if (absent)
    return {
      ran: false,
      passed: 0,
      failed: 0,
      exitCode: null,
      summary: `the build has no test step: its Makefile has no '${absent}' target`,
    };
  const counts = parseTestSummary(output, exitCode);
  const tail = output.trim().split('\n').slice(-15).join('\n');
  // tests that cannot build because a submodule has no content say so before their output
  const submodule =
    exitCode !== 0 && run.sourceDir ? missingSubmoduleIn(run.sourceDir, output, run.plan?.dir) : null;
  const summary = submodule
    ? `the tests need the submodule ${describeSubmodule(submodule)}, which has no content in this checkout\n${tail}`
    : tail;
  const files = await harnessFiles(sandbox, run);
  let cases: TestCase[] = parseTestResults(output, files);
  // no harness says which tests ran: the run as a whole is the one test
  if (cases.length === 0)
    cases = [
      {
        name: `(the test run: ${commands.join(' && ')})`,
        status: exitCode === 0 ? 'pass' : 'fail',
        ...(exitCode === 0 ? {} : { output: tail }),
      },
    ];
  return {
    ran: true,
    passed: counts.passed,
    failed: counts.failed,
    exitCode,
    summary,
    startedAt,
    cases,
    ...(cut ? { cutAt: { command: cut, limitSeconds: run.timeoutMs / 1000 } } : {}),
  };
}

/**
 * The test target the top make said it has no rule for, when that is why the step failed: every
 * target the commands ask for is missing. A fallback that ran and failed (`make check || make
 * test`, tcc: no `check`, a `test` whose tests fail) is a failed test step, not an absent one.
 */
function absentTarget(commands: readonly string[], output: string): string | undefined {
  const missing = [...output.matchAll(ABSENT_TARGET)].map((m) => m[1] as string);
  if (missing.length === 0) return undefined;
  const asked = new Set(commands.flatMap((c) => [...c.matchAll(ASKED_TARGET)].map((m) => m[1] as string)));
  return [...asked].every((target) => missing.includes(target)) ? missing[0] : undefined;
}

/**
 * CTest's LastTest.log, meson's testlog.json and automake's .trs files (with their .log) of the
 * build tree, read inside the sandbox, each cut at 64 KiB. The build wrote them: a file may
 * claim anything, so the separator carries a nonce it cannot know.
 */
async function harnessFiles(sandbox: Sandbox, run: PackageTestRun): Promise<TestResultFile[]> {
  const nonce = randomBytes(12).toString('hex');
  const script = [
    `find . -maxdepth 8 -type f \\( -name LastTest.log -o -name testlog.json -o -name '*.trs' \\) 2>/dev/null | head -n ${MAX_RESULT_FILES} |`,
    'while IFS= read -r f; do',
    `  printf '\\n@@${nonce} %s\\n' "$f"; head -c ${MAX_RESULT_FILE_BYTES} -- "$f"`,
    '  case "$f" in *.trs) l="$(dirname -- "$f")/$(basename -- "$f" .trs).log"; if [ -f "$l" ]; then',
    `    printf '\\n@@${nonce} %s\\n' "$l"; head -c ${MAX_RESULT_FILE_BYTES} -- "$l"; fi;; esac`,
    'done',
  ].join('\n');
  const listed = await sandbox.run(['/bin/sh', '-c', script], {
    cwd: planCommandContext(run.plan).cwd,
    timeoutMs: 120_000,
    outputCapBytes: 8 * 1024 * 1024,
    ...(run.signal ? { signal: run.signal } : {}),
  });
  if (listed.exitCode !== 0 || listed.truncated) return [];
  const files: TestResultFile[] = [];
  const parts = listed.stdout.split(new RegExp(`\\n@@${nonce} `));
  for (const part of parts.slice(1)) {
    const newline = part.indexOf('\n');
    if (newline < 0) continue;
    files.push({ path: part.slice(0, newline).replace(/^\.\//, ''), text: part.slice(newline + 1) });
  }
  return files;
}
