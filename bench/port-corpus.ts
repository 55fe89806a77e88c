// Ports packages of the public corpus one after another, offline, and prints a Markdown table:
// verdict, build system, error category, attempts, wall time, tests. Usage:
//   npx tsx bench/port-corpus.ts [NAME…]        (default: every package of the list)
// The corpus is fetched first (../shared/corpus/fetch-debian-source into ~/.cache/rvport/corpus).
// Each port uses --force (no recipe cache), a 20-minute limit per build command, and a temporary
// output folder.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../src/process/runProcess.ts';
import { corpusList, ensureCorpus } from '../test/helpers/corpus.ts';

const bin = new URL('../bin/rvport.js', import.meta.url).pathname;
const listed = readFileSync(corpusList, 'utf8')
  .split('\n')
  .map((l) => l.split('#'))
  .filter(([name]) => name?.trim())
  .map(([name, ...note]) => ({ name: (name as string).trim(), note: note.join('#').trim() }));
const wanted = process.argv.slice(2);
const packages = wanted.length ? listed.filter((p) => wanted.includes(p.name)) : listed;
const corpus = await ensureCorpus(packages.map((p) => p.name));
const out = mkdtempSync(join(tmpdir(), 'rvport-bench-corpus-'));

interface Row {
  name: string;
  expected: string;
  exitCode: number;
  result: string;
  buildSystem: string;
  errorCategory: string;
  attempts: number;
  seconds: number;
  tests: string;
  llmCalls: number;
}
const rows: Row[] = [];
for (const { name, note } of packages) {
  const started = Date.now();
  const run = await runProcess({
    command: [
      process.execPath,
      bin,
      'port',
      join(corpus, name),
      '--force',
      '--offline',
      '--json',
      '--timeout',
      '1200',
      '--out',
      out,
    ],
    timeoutMs: 90 * 60_000,
    captureBytes: 1024 * 1024,
  });
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  let r: Record<string, unknown> = {};
  try {
    r = JSON.parse(run.stdout);
  } catch {}
  const tests = r.tests as { ran: boolean; passed: number; failed: number } | null | undefined;
  const row: Row = {
    name,
    expected: note.split('->').at(-1)?.trim() ?? '',
    exitCode: run.exitCode,
    result: String(r.result ?? (run.timedOut ? 'timeout' : 'crash')),
    buildSystem: String(r.buildSystem ?? '-'),
    errorCategory: String(r.errorCategory ?? '-'),
    attempts: Number(r.attempts ?? 0),
    seconds,
    tests: tests?.ran ? `${tests.passed} passed, ${tests.failed} failed` : 'not run',
    llmCalls: Number((r.llm as { calls?: number } | undefined)?.calls ?? 0),
  };
  rows.push(row);
  console.error(`${name}: ${row.result} (exit ${row.exitCode}) in ${seconds} s`);
}
const table = [
  '| package | expected | result | exit | build system | error category | attempts | wall time | tests | LLM calls |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.expected} | ${r.result} | ${r.exitCode} | ${r.buildSystem} | ${r.errorCategory} | ${r.attempts} | ${r.seconds} s | ${r.tests} | ${r.llmCalls} |`,
  ),
].join('\n');
writeFileSync(join(out, 'results.json'), JSON.stringify(rows, null, 2));
console.log(table);
console.error(`outputs in ${out}`);
