import { join } from 'node:path';
import type { AuditEvent, ErrorRecord, PortResult, PortState } from '../port/index.ts';
import { terminalSafe } from './terminalSafe.ts';

/** Audit events an escalated port prints on the terminal (the seed system's number). */
export const AUDIT_EVENTS_SHOWN = 10;
const MAX_LINE = 200;

/**
 * What a finished port prints on stderr. An escalated one also prints what a user reads first:
 * the last error line and the last audit events, then where escalation.md is. Everything quoted
 * from the build is made terminal-safe: it comes from the repository.
 */
export function describePortResult(result: PortResult): string {
  const lines = [`rvport: ${terminalSafe(result.message)}`];
  if (result.kind === 'escalated' && result.state) {
    lines.push(...escalationDetail(result.state));
    lines.push(`rvport: escalation report: ${join(result.outDir, 'escalation.md')}`);
  }
  lines.push(`rvport: outputs in ${result.outDir}`);
  return `${lines.join('\n')}\n`;
}

function escalationDetail(state: PortState): string[] {
  const lines: string[] = [];
  const last = state.errors.at(-1);
  if (last) {
    const where = [last.node, last.phase].filter(Boolean).join('/');
    const command = last.command ? `: ${oneLine(last.command)}` : '';
    lines.push(`last error (${last.category} in ${where}${command}):`);
    lines.push(`  ${oneLine(errorLine(last))}`);
  }
  const events = state.audit.slice(-AUDIT_EVENTS_SHOWN);
  if (events.length) {
    lines.push(`last ${events.length === 1 ? 'audit event' : `${events.length} audit events`}:`);
    for (const event of events) lines.push(`  ${auditLine(event)}`);
  }
  return lines;
}

/** The last error in machine-readable form (`port --json`): where, its category and its line. */
export function lastErrorJson(
  state: PortState,
): { category: string; node: string; phase: string | null; evidence: string } | null {
  const last = state.errors.at(-1);
  if (!last) return null;
  return { category: last.category, node: last.node, phase: last.phase ?? null, evidence: errorLine(last) };
}

/** The line that decided the category, else the last line of the output. */
function errorLine(error: ErrorRecord): string {
  if (error.evidence?.trim()) return error.evidence;
  const lines = error.message.split('\n').filter((l) => l.trim());
  return lines.at(-1) ?? error.message;
}

function auditLine(event: AuditEvent): string {
  const time = /T(\d\d:\d\d:\d\d)/.exec(event.at)?.[1] ?? event.at;
  return oneLine(`${time} ${event.node}: ${event.event}${event.detail ? ` (${event.detail})` : ''}`);
}

function oneLine(text: string): string {
  const flat = terminalSafe(text).replace(/\s+/g, ' ').trim();
  return flat.length > MAX_LINE ? `${flat.slice(0, MAX_LINE - 1)}…` : flat;
}
