import { rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { type ElfFacts, inspectFile, TARGET_MACHINE } from '../../verify/index.ts';
import type { ArtifactRecord, DeliveryRecord, PortState } from '../state/PortState.ts';
import type { ArtifactCopies } from './copyArtifactsOut.ts';

export interface JudgedDelivery {
  delivery: DeliveryRecord;
  verification: PortState['verification'];
}

/**
 * The verdict of the bytes delivered. A copy whose SHA-256 is the one the verify node recorded
 * is what was judged; any other copy (the tests or a smoke run rewrote the file, or the tree was
 * built again after a resume) is judged again on the host copy, with rvport's own readers, and
 * kept only when it is still riscv64 through and through. A refused copy of a file that changed
 * after verification, or a changed file that is no longer riscv64, makes the port not verified
 * and is named in the reason; the copy is removed, so OUT/ never holds what was not verified.
 */
export async function judgeDelivery(
  target: string,
  artifacts: readonly ArtifactRecord[],
  copies: ArtifactCopies,
  verification: PortState['verification'],
): Promise<JudgedDelivery> {
  const byPath = new Map(artifacts.map((a) => [a.path, a]));
  const delivery: DeliveryRecord = {
    delivered: [],
    reverified: [],
    refused: [...copies.refused],
    bytes: copies.bytes,
    limitBytes: copies.limits.totalBytes,
  };
  for (const copy of copies.copied) {
    const recorded = byPath.get(copy.path)?.sha256;
    if (recorded === copy.sha256) {
      delivery.delivered.push(copy.path);
      continue;
    }
    const file = join(target, posix.normalize(copy.path));
    const problem = notRiscv64(await inspectFile(file));
    if (problem === null) {
      delivery.delivered.push(copy.path);
      delivery.reverified.push(copy.path);
      continue;
    }
    await rm(file, { force: true });
    delivery.bytes -= copy.bytes;
    delivery.refused.push({
      path: copy.path,
      reason: `${recorded ? 'it changed after verification and' : 'its copy'} ${problem}`,
      changed: true,
    });
  }
  return { delivery, verification: deliveredVerdict(verification, delivery, copies) };
}

/** Why the facts of a host copy are not a riscv64 object, or null when they are one. */
export function notRiscv64(facts: ElfFacts): string | null {
  const objects = facts.kind === 'archive' ? (facts.members ?? []) : [facts];
  if (facts.kind === 'archive' && (facts.error || objects.length === 0))
    return `is a damaged or empty archive${facts.error ? ` (${facts.error})` : ''}`;
  for (const o of objects) {
    if (o.kind !== 'elf') return `is not an ELF file now (${o.path}: ${o.error ?? o.kind})`;
    if (o.machine !== TARGET_MACHINE) return `is ${o.machine} ${o.bits}-bit now, not riscv64 (${o.path})`;
  }
  return null;
}

function deliveredVerdict(
  verification: PortState['verification'],
  delivery: DeliveryRecord,
  copies: ArtifactCopies,
): PortState['verification'] {
  if (!verification) return verification;
  const changed = delivery.refused.filter((r) => r.changed);
  const notes: string[] = [];
  if (delivery.reverified.length)
    notes.push(
      `${list(delivery.reverified)} changed after verification and ${delivery.reverified.length > 1 ? 'were' : 'was'} verified again on the copy delivered`,
    );
  const unchanged = delivery.refused.filter((r) => !r.changed);
  if (unchanged.length)
    notes.push(`not delivered: ${unchanged.map((r) => `${r.path}: ${r.reason}`).join('; ')}`);
  const noted = (reason: string) => [reason, ...notes].join('; ');
  if (verification.verdict !== 'verified')
    return { ...verification, reason: noted([verification.reason, ...changed.map(refusal)].join('; ')) };
  if (changed.length)
    return {
      verdict: 'not_verified',
      reason: noted(
        `the delivered artifacts are not the ones verified: ${changed.map(refusal).join('; ')} (verified in the build tree: ${verification.reason})`,
      ),
    };
  const attempted = copies.copied.length + copies.refused.length;
  if (attempted > 0 && delivery.delivered.length === 0)
    return {
      verdict: 'not_verified',
      reason: noted(
        `no verified artifact was delivered (verified in the build tree: ${verification.reason})`,
      ),
    };
  return { ...verification, reason: noted(verification.reason) };
}

const refusal = (r: { path: string; reason: string }) => `${r.path} refused: ${r.reason}`;

function list(paths: readonly string[]): string {
  return paths.length > 3 ? `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more` : paths.join(', ');
}
