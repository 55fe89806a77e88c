// A local batch against the same ports run one by one: `rvport batch LIST --workers 2 --force`
// versus the sum of single `rvport port SOURCE --force` wall times (both --offline: no LLM),
// both measured here, in one run, in the same fresh RVPORT_HOME (sandbox images shared with the
// machine's). Usage:
//   npx tsx bench/batch.ts [NAME…]        (default: the eight packages below)
// Prints a Markdown table and the totals; the batch's summary.md is kept in the output folder.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../src/process/runProcess.ts';
import { ensureCorpus } from '../test/helpers/corpus.ts';
import { makePortHome } from '../test/helpers/portHome.ts';

const DEFAULT_PACKAGES = ['sl', 'libinih', 'cjson', 'libdeflate', 'xxhash', 'tcc', 'luajit', 'memtest86+'];
const packages = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_PACKAGES;
const bin = new URL('../bin/rvport.js', import.meta.url).pathname;
const corpus = await ensureCorpus(packages);
const home = makePortHome('rvport-bench-batch-home-');
const out = mkdtempSync(join(tmpdir(), 'rvport-bench-batch-'));
const env = { RVPORT_HOME: home };
const seconds = (ms: number) => Math.round(ms / 100) / 10;

console.error(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const single = new Map<string, { result: string; ms: number }>();
for (const name of packages) {
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
      '--out',
      join(out, 'single'),
    ],
    env,
    timeoutMs: 60 * 60_000,
    captureBytes: 1024 * 1024,
  });
  const ms = Date.now() - started;
  let result = 'crash';
  try {
    result = JSON.parse(run.stdout).result;
  } catch {}
  single.set(name, { result, ms });
  console.error(`single ${name}: ${result} in ${seconds(ms)} s`);
}

writeFileSync(join(out, 'list.txt'), `${packages.map((p) => join(corpus, p)).join('\n')}\n`);
const started = Date.now();
const batch = await runProcess({
  command: [
    process.execPath,
    bin,
    'batch',
    join(out, 'list.txt'),
    '--workers',
    '2',
    '--force',
    '--offline',
    '--json',
    '--out',
    join(out, 'batch'),
  ],
  env,
  timeoutMs: 4 * 60 * 60_000,
  captureBytes: 4 * 1024 * 1024,
});
const batchMs = Date.now() - started;
console.error(
  `batch: exit ${batch.exitCode} in ${seconds(batchMs)} s; load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const rows = readFileSync(join(out, 'batch', 'results.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { name: string; verdict: string; buildSystem: string | null; wallMs: number });

const sumSingle = [...single.values()].reduce((a, s) => a + s.ms, 0);
const sumBatchPorts = rows.reduce((a, r) => a + r.wallMs, 0);
console.log(
  '| package | build system | single port | single wall time | in the batch | port wall time in the batch |',
);
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  const s = single.get(r.name);
  console.log(
    `| ${r.name} | ${r.buildSystem ?? '-'} | ${s?.result} | ${seconds(s?.ms ?? 0)} s | ${r.verdict} | ${seconds(r.wallMs)} s |`,
  );
}
console.log(`| **total** | | | **${seconds(sumSingle)} s** (sum) | | ${seconds(sumBatchPorts)} s (sum) |`);
console.log(
  `\nbatch wall time (--workers 2): ${seconds(batchMs)} s; sum of single ports: ${seconds(sumSingle)} s; ` +
    `ratio ${(sumSingle / batchMs).toFixed(2)}x`,
);
console.error(`outputs in ${out}`);
