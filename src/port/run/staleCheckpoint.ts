import { version } from '../../version.ts';
import { PORT_STATE_VERSION } from '../state/PortState.ts';

/**
 * Why an interrupted port's checkpoint must not be resumed by this rvport, or null when it may:
 * another rvport wrote it (its analysis and plan are that version's, its state may not be this
 * one's shape), or its port state has another format.
 */
export function staleCheckpoint(context: unknown, current = version): string | null {
  const c = (context ?? {}) as { formatVersion?: unknown; rvportVersion?: unknown };
  if (c.formatVersion !== PORT_STATE_VERSION)
    return `its port state has format ${String(c.formatVersion)} (this rvport writes ${PORT_STATE_VERSION})`;
  if (c.rvportVersion !== undefined && c.rvportVersion !== current)
    return `rvport ${String(c.rvportVersion)} wrote it (this is ${current})`;
  return null;
}
