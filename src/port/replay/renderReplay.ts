import { seconds, table } from '../outputs/markdown.ts';
import type { PortState, ReplayRecord } from '../state/PortState.ts';
import type { ArtifactComparison } from './compareArtifacts.ts';

/** replay.md: whether build.sh alone rebuilt the port's artifacts, and each artifact's comparison. */
export function renderReplay(
  state: PortState,
  record: ReplayRecord,
  comparisons: readonly ArtifactComparison[],
): string {
  const out: string[] = [];
  out.push(`# Replay of ${state.source.name}'s build.sh`);
  out.push('');
  out.push(`Replayed: **${record.replayed}**: ${record.reason}.`);
  out.push('');
  out.push(
    `build.sh ran in a fresh ${record.mode} sandbox instance (the image and the packages of packages.txt, nothing the port installed) ` +
      `on a fresh copy of \`${state.source.spec}\`${state.source.commit ? ` at commit \`${state.source.commit}\`` : ''}, ` +
      `in ${seconds(record.durationMs)} (${record.at}).`,
  );
  out.push(
    "The image holds build tools of its own (see recipe.md's prerequisites): a tool packages.txt left out would not show here; the Dockerfile on a plain Debian image is the test of that.",
  );
  if (comparisons.length) {
    out.push('');
    out.push('## Artifacts');
    out.push('');
    out.push(
      table(
        ['artifact', 'role', 'found', 'ELF facts', 'bytes'],
        comparisons.map((c) => [
          c.path,
          c.role,
          c.found ? 'yes' : 'no',
          c.differences.length ? c.differences.join('; ') : 'same',
          c.identical === null ? 'no copy to compare' : c.identical ? 'identical' : 'differ',
        ]),
      ),
    );
  }
  if (record.replayed === 'no') {
    out.push('');
    out.push('The log of the replay is replay.log.');
  }
  return `${out.join('\n')}\n`;
}
