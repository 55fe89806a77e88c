// Output folders for the dashboard's tests, written by the functions a real port and a real batch
// use (writePortOutputs, BatchStore, writeBatchReport), so the fixtures cannot drift from the
// format. Only build.log is written here the way the build node logs (its header, exitLine).
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BatchEntry } from '../../batch/BatchEntry.ts';
import { BATCH_LOCK_FILE, BatchStore } from '../../batch/BatchStore.ts';
import type { EntryResult } from '../../batch/EntryResult.ts';
import { summarizeBatch } from '../../batch/summarizeBatch.ts';
import { portResult, validEntry } from '../../batch/testing/batchFixtures.ts';
import { writeBatchReport } from '../../batch/writeBatchReport.ts';
import { anError, exitLine, type PortState, portState, writePortOutputs } from '../../port/testing/index.ts';

/** What a hostile build may print; a dashboard that shows it as markup fails the tests. */
export const HOSTILE_TEXT = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';

const logCommand = (log: string, phase: string, command: string, output: string[], exitCode: number) => {
  appendFileSync(log, `\n### [${phase}] (in /build/src) $ ${command}\n`);
  if (output.length) appendFileSync(log, `${output.join('\n')}\n`);
  appendFileSync(log, exitLine({ exitCode, timedOut: false, durationMs: 1200 }));
};

/** A verified port of `name` in OUT/name: state, report, recipe, build.sh, build.log, artifacts. */
export async function writeVerifiedPort(
  outDir: string,
  name: string,
  over: Partial<PortState> & { wallMs?: number } = {},
): Promise<string> {
  const dir = join(outDir, name);
  mkdirSync(join(dir, 'artifacts', 'build'), { recursive: true });
  const library = Buffer.from(`\x7fELF riscv64 library of ${name}`);
  writeFileSync(join(dir, 'artifacts', 'build', `lib${name}.so.1`), library);
  const log = join(dir, 'build.log');
  logCommand(log, 'configure', 'cmake -S . -B build', ['-- Configuring done'], 0);
  logCommand(log, 'build', 'cmake --build build', ['[100%] Built target demo'], 0);
  const wallMs = over.wallMs ?? 42_000;
  const state = portState({
    source: { spec: `debian:${name}`, name, commit: '0123456789abcdef0123456789abcdef01234567' },
    buildStatus: 'SUCCESS',
    plan: {
      buildSystem: 'cmake',
      dir: '.',
      packages: [],
      phases: [
        { name: 'configure', commands: ['cmake -S . -B build'] },
        { name: 'build', commands: ['cmake --build build'] },
      ],
      expectedArtifacts: [],
      origin: 'default',
    },
    executed: [
      {
        phase: 'configure',
        command: 'cmake -S . -B build',
        exitCode: 0,
        durationMs: 12_000,
        attempt: 0,
        origin: 'plan',
      },
      {
        phase: 'build',
        command: 'cmake --build build',
        exitCode: 0,
        durationMs: 20_000,
        attempt: 0,
        origin: 'plan',
      },
      {
        phase: 'test',
        command: 'ctest --test-dir build',
        exitCode: 0,
        durationMs: 3_000,
        attempt: 0,
        origin: 'plan',
      },
    ],
    artifacts: [
      {
        path: `build/lib${name}.so.1`,
        machine: 'riscv64',
        bits: 64,
        endian: 'little',
        type: 'shared',
        abi: 'lp64d',
        interpreter: null,
        linkage: 'dynamic',
        role: 'shared-library',
        rank: 0,
        sha256: createHash('sha256').update(library).digest('hex'),
        size: library.length,
      },
    ],
    verification: { verdict: 'verified', reason: '1 riscv64 ELF object, none for another machine' },
    tests: { ran: true, passed: 19, failed: 0, exitCode: 0, summary: '100% tests passed' },
    replay: {
      replayed: 'yes',
      reason: 'same artifacts',
      at: '2026-12-01T00:00:00.000Z',
      mode: 'accelerated',
      durationMs: 9000,
      compared: 1,
      identical: 1,
    },
    timings: { init: 5_000, build: wallMs - 9_000, finish: 2_000, replay: 2_000, total: wallMs },
    recipe: `# ${name} for riscv64\n\nRun \`build.sh\`.\n`,
    ...over,
  });
  await writePortOutputs(state, dir, { package: false });
  return dir;
}

export interface EscalatedPortOptions {
  /** Lines of output before the error line in the failing command (a long log pages). */
  noiseLines?: number;
  category?: PortState['errors'][number]['category'];
}

/** The 1-based line of build.log that holds the failing command's error line. */
export interface EscalatedPort {
  dir: string;
  errorLineNumber: number;
  errorLine: string;
}

/** An escalated port: a compile error (with hostile text in it) after many lines of output. */
export async function writeEscalatedPort(
  outDir: string,
  name: string,
  options: EscalatedPortOptions = {},
): Promise<EscalatedPort> {
  const dir = join(outDir, name);
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'build.log');
  const command = 'make -j2';
  const errorLine = `src/${name}.c:12:5: error: unknown type name 'u_int' ${HOSTILE_TEXT}`;
  logCommand(
    log,
    'configure',
    './configure --prefix=/usr',
    ['checking for gcc... gcc', 'checking for stray error: no'],
    0,
  );
  // the same command once before, succeeding: the mark belongs to the last run of it
  logCommand(log, 'build', command, [errorLine.replace('error', 'note')], 0);
  const noise = Array.from(
    { length: options.noiseLines ?? 1200 },
    (_, i) => `gcc -c src/file${i}.c -o file${i}.o`,
  );
  logCommand(log, 'build', command, [...noise, errorLine, 'make: *** [Makefile:3: all] Error 1'], 2);
  // the ground truth, counted on the file as written: the last line that is the error line
  const errorLineNumber = readFileSync(log, 'utf8').split('\n').lastIndexOf(errorLine) + 1;
  const message = `${errorLine}\nmake: *** [Makefile:3: all] Error 2`;
  const state = portState({
    source: { spec: `debian:${name}`, name },
    buildStatus: 'ESCALATED',
    plan: {
      buildSystem: 'autotools',
      dir: '.',
      packages: [],
      phases: [{ name: 'build', commands: [command] }],
      expectedArtifacts: [],
      origin: 'default',
    },
    attemptCount: 5,
    errors: [{ ...anError(options.category ?? 'COMPILATION', message), command, phase: 'build', errorLine }],
    executed: [
      {
        phase: 'configure',
        command: './configure',
        exitCode: 0,
        durationMs: 4_000,
        attempt: 0,
        origin: 'plan',
      },
      { phase: 'build', command, exitCode: 2, durationMs: 7_000, attempt: 0, origin: 'plan' },
    ],
    escalationReason: `the last three errors share one signature ${HOSTILE_TEXT}`,
    timings: { init: 3_000, build: 11_000, escalate: 100, total: 14_100 },
    findings: [],
  });
  await writePortOutputs(state, dir, { package: false });
  return { dir, errorLineNumber, errorLine };
}

/** A batch folder's state as `rvport batch` leaves it: batch.json, results.jsonl, summary.md. */
export async function writeBatchState(
  outDir: string,
  entries: readonly BatchEntry[],
  results: readonly EntryResult[],
  options: { lockedBy?: number } = {},
): Promise<void> {
  const store = new BatchStore(outDir);
  await store.load();
  for (const r of results) if (!store.result(r.key)) await store.record(r);
  await writeBatchReport(outDir, summarizeBatch(entries, store.results()));
  if (options.lockedBy !== undefined)
    writeFileSync(join(outDir, BATCH_LOCK_FILE), `${options.lockedBy} 0123456789abcdef\n`);
}

export { portResult, validEntry };
