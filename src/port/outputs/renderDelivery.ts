import type { PortState } from '../state/PortState.ts';
import { table } from './markdown.ts';

const MIB = 1024 * 1024;

/**
 * The report's account of OUT/NAME/artifacts: what was delivered, what changed after the verify
 * node and was judged again on its copy, what was refused and why; and the objects the source
 * shipped, which the build copied but did not build. Nothing for a port that delivered nothing.
 */
export function renderDelivery(state: Pick<PortState, 'delivery' | 'shippedInSource'>): string[] {
  const out: string[] = [];
  const d = state.delivery;
  if (d && (d.delivered.length || d.refused.length)) {
    out.push('', '## Delivered artifacts', '');
    out.push(
      `${d.delivered.length} copied to artifacts/ and judged on the copies (${(d.bytes / MIB).toFixed(1)} MiB apparent size of the ${(d.limitBytes / MIB).toFixed(0)} MiB a port may deliver).`,
    );
    if (d.reverified.length)
      out.push('', `Changed after verification, verified again on the copy: ${d.reverified.join(', ')}.`);
    if (d.refused.length) {
      out.push('', 'Not delivered:', '');
      out.push(
        table(
          ['artifact', 'changed after verification', 'why'],
          d.refused.map((r) => [r.path, r.changed ? 'yes' : 'no', r.reason]),
        ),
      );
    }
  }
  const shipped = state.shippedInSource ?? [];
  if (shipped.length) {
    out.push('', '## Shipped in the source', '');
    out.push(
      'These objects are files of the source (same content), not built by this port; they do not count as built:',
      '',
    );
    out.push(
      table(
        ['object', 'shipped as'],
        shipped.slice(0, 40).map((s) => [s.path, s.from]),
      ),
    );
    if (shipped.length > 40) out.push(`\n… and ${shipped.length - 40} more (state.json has them).`);
  }
  return out;
}
