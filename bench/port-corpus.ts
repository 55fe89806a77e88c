// Ports the packages of the three corpora one after another, offline, with no LLM, and writes one
// Markdown table (verdict, category, attempts, wall time, mode) and a failure taxonomy
// (category → packages). Resumable: every finished port is saved at once to the results file, and
// a second run ports only what is not there yet. Usage:
//   npx tsx bench/port-corpus.ts [--corpus public,wide,git] [--results FILE] [--redo] [NAME…]
//   npx tsx bench/port-corpus.ts --table [--results FILE]      (print the table of saved results)
// Sources: public from the fetched Debian tarballs (~/.cache/rvport/corpus), wide as `debian:NAME`
// (how a porter names a Debian package), git from the corpus bundles cloned into
// ~/.cache/rvport/git-corpus. Each port uses --force (no recipe cache) and --restart (no checkpoint of an
// earlier, interrupted run), a 20-minute limit per build
// command and 45 minutes in all.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeJsonAtomic } from '../src/fs/writeFileAtomic.ts';
import { runProcess } from '../src/process/runProcess.ts';
import { corpusCache, corpusDir, ensureCorpus } from '../test/helpers/corpus.ts';

const CORPORA = ['public', 'wide', 'git'] as const;
type Corpus = (typeof CORPORA)[number];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    corpus: { type: 'string', default: CORPORA.join(',') },
    results: { type: 'string', default: join(homedir(), '.cache', 'rvport', 'bench', 'corpora.json') },
    redo: { type: 'boolean', default: false },
    table: { type: 'boolean', default: false },
  },
});
const resultsFile = values.results as string;
const bin = new URL('../bin/rvport.js', import.meta.url).pathname;
const gitCache = join(homedir(), '.cache', 'rvport', 'git-corpus');
const out = join(dirname(resultsFile), 'outputs');

interface Row {
  corpus: Corpus;
  name: string;
  note: string;
  exitCode: number;
  result: string;
  buildSystem: string;
  mode: string;
  errorCategory: string;
  errorLine: string;
  attempts: number;
  /** Repairs applied (heuristics, fixer), from state.json: a repair starts the plan afresh, so
   * `attempts` of a port that ended verified counts only the failures after the last one. */
  repairs: number;
  seconds: number;
  tests: string;
  llmCalls: number;
  /** The replay of build.sh as the port's last step (public corpus); absent in older rows. */
  replay?: string;
  commit: string;
  finishedAt: string;
}

function listed(corpus: Corpus): { name: string; note: string }[] {
  const file = join(corpusDir, `${corpus}.txt`);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const [name, ...rest] = corpus === 'git' ? l.split('\t') : l.split('#');
      return {
        name: (name as string).trim(),
        note: (corpus === 'git' ? (rest[3] ?? '') : rest.join('#')).trim(),
      };
    });
}

function load(): Row[] {
  return existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Row[]) : [];
}

async function sourceFor(corpus: Corpus, name: string): Promise<string> {
  if (corpus === 'wide') return `debian:${name}`;
  if (corpus === 'public') return join(await ensureCorpus([name]), name);
  const cloned = await runProcess({
    command: [join(corpusDir, 'clone-git-corpus'), gitCache, name],
    timeoutMs: 10 * 60_000,
  });
  if (cloned.exitCode !== 0) throw new Error(`clone-git-corpus ${name}: ${cloned.stderr}`);
  return join(gitCache, name);
}

async function headCommit(): Promise<string> {
  const r = await runProcess({ command: ['git', 'rev-parse', '--short', 'HEAD'], cwd: dirname(bin) });
  return r.stdout.trim();
}

async function portOne(corpus: Corpus, name: string, note: string, commit: string): Promise<Row> {
  const source = await sourceFor(corpus, name);
  const started = Date.now();
  const run = await runProcess({
    command: [
      process.execPath,
      bin,
      'port',
      source,
      '--force',
      // a checkpoint an interrupted earlier run left would carry that run's code and analysis
      '--restart',
      '--offline',
      '--json',
      '--timeout',
      '1200',
      // the public corpus gives the replay table (build.sh alone rebuilds the port); the others
      // are about porting code nobody chose, and a replay would double their time
      corpus === 'public' ? '--replay' : '--no-replay',
      '--out',
      join(out, corpus),
    ],
    timeoutMs: 45 * 60_000,
    captureBytes: 4 * 1024 * 1024,
  });
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  let r: Record<string, unknown> = {};
  try {
    r = JSON.parse(run.stdout);
  } catch {}
  const tests = r.tests as { ran: boolean; passed: number; failed: number } | null | undefined;
  const lastError = r.lastError as { evidence?: string } | null | undefined;
  const stderrLast = run.stderr.trim().split('\n').at(-1) ?? '';
  let repairs = 0;
  try {
    const state = JSON.parse(readFileSync(join(String(r.outDir ?? ''), 'state.json'), 'utf8'));
    repairs = (state.fixAttempts as { outcome: string }[]).filter((f) => f.outcome === 'applied').length;
  } catch {}
  return {
    corpus,
    name,
    note,
    exitCode: run.exitCode,
    result: String(r.result ?? (run.timedOut ? 'timeout' : 'crash')),
    buildSystem: String(r.buildSystem ?? '-'),
    mode: String(r.mode ?? '-'),
    errorCategory: String(r.errorCategory ?? (r.result ? '-' : 'NO_RESULT')),
    errorLine: (lastError?.evidence ?? (r.result ? '' : stderrLast)).replace(/\s+/g, ' ').slice(0, 160),
    attempts: Number(r.attempts ?? 0),
    repairs,
    seconds,
    tests: tests?.ran ? `${tests.passed} passed, ${tests.failed} failed` : 'not run',
    llmCalls: Number((r.llm as { calls?: number } | undefined)?.calls ?? 0),
    replay: replayCell(r.replay),
    commit,
    finishedAt: new Date().toISOString(),
  };
}

/** `yes, 23 of 23 identical, 41 s`, `no: …`, `skipped: …`, or `-` when none was recorded. */
function replayCell(record: unknown): string {
  const r = record as
    | { replayed?: string; reason?: string; compared?: number; identical?: number; durationMs?: number }
    | null
    | undefined;
  if (!r?.replayed) return '-';
  if (r.replayed === 'yes')
    return `yes, ${r.identical} of ${r.compared} identical, ${Math.round((r.durationMs ?? 0) / 1000)} s`;
  return `${r.replayed}: ${(r.reason ?? '').slice(0, 100)}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/`/g, "'");
}

function render(rows: readonly Row[]): string {
  const lines: string[] = [];
  for (const corpus of CORPORA) {
    const mine = rows.filter((r) => r.corpus === corpus);
    if (!mine.length) continue;
    const verified = mine.filter((r) => r.result === 'verified').length;
    lines.push(`#### ${corpus}: ${verified} of ${mine.length} verified`, '');
    const replays = mine.some((r) => r.replay && r.replay !== '-');
    lines.push(
      `| package | result | exit | category | attempts | repairs | wall time | mode | build system | tests |${replays ? ' replay |' : ''} error line |`,
    );
    lines.push(`|---|---|---|---|---|---|---|---|---|---|${replays ? '---|' : ''}---|`);
    for (const r of mine)
      lines.push(
        `| ${r.name} | ${r.result} | ${r.exitCode} | ${r.errorCategory} | ${r.attempts} | ${r.repairs ?? '?'} | ${r.seconds} s | ${r.mode} | ${r.buildSystem} | ${r.tests} |${replays ? ` ${cell(r.replay ?? '-')} |` : ''} ${cell(r.errorLine)} |`,
      );
    lines.push('');
  }
  const failures = new Map<string, string[]>();
  for (const r of rows.filter((r) => r.result !== 'verified')) {
    const key = r.errorCategory === '-' ? r.result : r.errorCategory;
    failures.set(key, [...(failures.get(key) ?? []), `${r.name} (${r.corpus})`]);
  }
  lines.push('#### Failures by category', '', '| category | packages |', '|---|---|');
  for (const [key, names] of [...failures].sort((a, b) => b[1].length - a[1].length))
    lines.push(`| ${key} | ${names.join(', ')} |`);
  const llm = rows.reduce((n, r) => n + r.llmCalls, 0);
  const commits = [...new Set(rows.map((r) => r.commit))].join(', ');
  lines.push('', `LLM calls in all: ${llm}. Code: ${commits}.`);
  return lines.join('\n');
}

let rows = load();
if (!values.table) {
  mkdirSync(out, { recursive: true });
  const wanted = new Set(positionals);
  const corpora = (values.corpus as string)
    .split(',')
    .filter((c): c is Corpus => CORPORA.includes(c as Corpus));
  for (const corpus of corpora) {
    for (const { name, note } of listed(corpus)) {
      if (wanted.size && !wanted.has(name)) continue;
      const done = rows.some((r) => r.corpus === corpus && r.name === name);
      if (done && !(values.redo && wanted.size)) continue;
      // read per port: the checkout may move on during a run of hours (each row names its code)
      const commit = await headCommit();
      let row: Row;
      try {
        row = await portOne(corpus, name, note, commit);
      } catch (error) {
        row = {
          corpus,
          name,
          note,
          exitCode: -1,
          result: 'source unavailable to the benchmark',
          buildSystem: '-',
          mode: '-',
          errorCategory: 'NO_RESULT',
          errorLine: String((error as Error).message).slice(0, 160),
          attempts: 0,
          repairs: 0,
          seconds: 0,
          tests: 'not run',
          llmCalls: 0,
          commit,
          finishedAt: new Date().toISOString(),
        };
      }
      rows = [...rows.filter((r) => !(r.corpus === corpus && r.name === name)), row];
      await writeJsonAtomic(resultsFile, rows);
      console.error(
        `${corpus}/${name}: ${row.result} (exit ${row.exitCode}, ${row.errorCategory}) in ${row.seconds} s`,
      );
    }
  }
}
console.log(render(rows));
console.error(`results in ${resultsFile}, outputs in ${out} (corpus cache ${corpusCache})`);
