import type { DifferentialOutcome, DifferentialRecord } from '../differential/DifferentialRecord.ts';
import { codeBlock, seconds, table } from './markdown.ts';

const OUTCOMES: readonly DifferentialOutcome[] = [
  'fails only on riscv64',
  'fails only on x86_64',
  'fails on both',
  'passes on both',
];
/** Names listed per outcome in the table, at most (state.json has all). */
const MAX_NAMES = 12;

/**
 * The report's differential section: per outcome the tests and smoke runs, then every
 * riscv64-only failure with its output and the hazard evidence beside it.
 */
export function renderDifferential(record: DifferentialRecord | undefined): string[] {
  if (!record) return [];
  const out = ['', '## Differential tests (riscv64 against x86_64)', ''];
  const cost = [
    `x86_64 build ${seconds(record.x86BuildMs)}`,
    `tests and smoke runs ${seconds(record.x86TestMs)}`,
    ...(record.provisionMs ? [`provisioning the x86_64 build root ${seconds(record.provisionMs)}`] : []),
  ].join(', ');
  if (!record.ran) {
    out.push(`Not compared: ${record.reason} (${cost}).`);
    return out;
  }
  out.push(`${record.reason}. Added time ${seconds(record.durationMs)} (${cost}).`);
  if (record.riscv64Only > 0)
    out.push(
      '',
      `**${record.riscv64Only} fail only on riscv64**: the port's problem (the verdict stays: the ELF proof is the verdict, this is evidence beside it).`,
    );
  out.push('');
  out.push(
    table(
      ['outcome', 'count', 'tests and smoke runs'],
      OUTCOMES.map((o) => {
        const rows = record.rows.filter((r) => r.outcome === o);
        const names = rows
          .slice(0, MAX_NAMES)
          .map((r) => (r.kind === 'test' ? r.name : `${r.kind}: ${r.name}`));
        return [o, rows.length, `${names.join(', ')}${rows.length > MAX_NAMES ? ', …' : ''}`];
      }),
    ),
  );
  const riscvOnly = record.rows.filter((r) => r.outcome === 'fails only on riscv64');
  if (riscvOnly.length) {
    out.push('', '### Fails only on riscv64', '');
    for (const r of riscvOnly.slice(0, 20)) {
      out.push(`- ${r.kind}: \`${r.name}\``);
      if (r.output) out.push('', codeBlock(r.output), '');
    }
    if (record.hazards.length) {
      out.push(
        '',
        'Hazard evidence beside it (a compiler warning and the char-signedness scan on the same line first):',
        '',
      );
      out.push(
        table(
          ['line', 'compiler warning', 'scan finding'],
          record.hazards.slice(0, 20).map((h) => [h.location, h.warning ?? '-', h.finding ?? '-']),
        ),
      );
    }
  }
  return out;
}
