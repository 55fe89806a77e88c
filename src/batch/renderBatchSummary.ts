import { type BatchSummary, displayName } from './summarizeBatch.ts';

/** `summary.md`: one row per entry in LIST order, then totals per build system and per failure. */
export function renderBatchSummary(summary: BatchSummary, title = 'rvport batch'): string {
  const lines: string[] = [`# ${title}`, ''];
  lines.push(
    `${summary.entries} entries: ${summary.verified} verified, ${summary.failed} failed, ${summary.pending} not finished. ` +
      `Wall time of the ports: ${seconds(summary.wallMs)} in total. LLM: ${summary.llmCalls} calls, ${usd(summary.llmCostUsd)}.`,
    '',
    ...riscvOnlyLine(summary),
    '| line | package | verdict | build system | error category | attempts | wall time | LLM cost |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const { entry, result } of summary.rows) {
    const name = cell(displayName(entry));
    if (!result) {
      lines.push(`| ${entry.line} | ${name} | not finished | | | | | |`);
      continue;
    }
    if (result.verdict === 'invalid') {
      lines.push(`| ${entry.line} | ${name} | invalid | - | - | - | - | - |`);
      continue;
    }
    // differential tests: verified stays verified, with what fails only on riscv64 beside it
    const riscvOnly = result.riscv64OnlyFailures
      ? `, ${result.riscv64OnlyFailures} fail only on riscv64 ⚠`
      : '';
    lines.push(
      `| ${entry.line} | ${name} | ${result.verdict}${result.cacheHit ? ' (cache)' : ''}${riscvOnly} | ${result.buildSystem ?? '-'} | ` +
        `${result.errorCategory ?? '-'} | ${result.attempts} | ${seconds(result.wallMs)} | ${usd(result.llm.costUsd)} |`,
    );
  }
  lines.push(
    '',
    '## By build system',
    '',
    '| build system | entries | verified | failed | wall time | LLM cost |',
    '|---|---|---|---|---|---|',
  );
  for (const s of summary.byBuildSystem) {
    lines.push(
      `| ${cell(s.buildSystem)} | ${s.entries} | ${s.verified} | ${s.failed} | ${seconds(s.wallMs)} | ${usd(s.llmCostUsd)} |`,
    );
  }
  lines.push('', '## Failed entries by error category', '');
  if (summary.failuresByCategory.length === 0) {
    lines.push('None.');
  } else {
    lines.push('| error category | entries | packages |', '|---|---|---|');
    for (const c of summary.failuresByCategory) {
      lines.push(`| ${cell(c.category)} | ${c.entries} | ${c.packages.map(cell).join(', ')} |`);
    }
    lines.push('', '## Why they failed', '');
    for (const { entry, result } of summary.rows) {
      if (!result || result.verdict === 'verified') continue;
      lines.push(
        `- line ${entry.line}, ${cell(displayName(entry))} (${result.verdict}): ${oneLine(result.message)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The ports whose differential tests found failures only on riscv64, said above the table. */
function riscvOnlyLine(summary: BatchSummary): string[] {
  const marked = summary.rows.filter((r) => (r.result?.riscv64OnlyFailures ?? 0) > 0);
  if (marked.length === 0) return [];
  const names = marked.map((r) => cell(displayName(r.entry))).join(', ');
  return [
    `${marked.length} verified port${marked.length === 1 ? ' has' : 's have'} tests or smoke runs that fail only on riscv64 (differential tests, marked ⚠): ${names}.`,
    '',
  ];
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function usd(value: number): string {
  return `$${value.toFixed(2)}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Table cells hold user text (an invalid SOURCE may contain anything). */
function cell(text: string): string {
  return oneLine(text).replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
}
