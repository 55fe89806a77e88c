import type { AuditEvent, PortState } from '../../state/PortState.ts';

/** Audit events kept in the state; older ones are dropped. */
export const MAX_AUDIT = 200;

/** The audit trail with one more event (a new array; the state is not mutated). */
export function withAudit(state: PortState, node: string, event: string, detail?: string): AuditEvent[] {
  const next = [...state.audit, { at: new Date().toISOString(), node, event, ...(detail ? { detail } : {}) }];
  return next.length > MAX_AUDIT ? next.slice(next.length - MAX_AUDIT) : next;
}
