import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ChrootSandbox } from '../chroot/ChrootSandbox.ts';
import { INSTANCE_RECORD, type InstanceRecord } from '../chroot/InstanceRecord.ts';
import { sandboxPaths } from '../sandboxPaths.ts';
import { censusBuildText } from './censusBuildText.ts';
import { EVIDENCE_LOG, EVIDENCE_RECORD, type EvidenceLayer } from './evidenceLayer.ts';
import { judgeUserlandEvidence, type UserlandEvidence } from './judgeUserlandEvidence.ts';
import { readInvocationLog } from './readInvocationLog.ts';

/** The evidence layer an instance was made with, if any. */
export async function instanceEvidenceLayer(
  box: ChrootSandbox,
  home?: string,
): Promise<EvidenceLayer | undefined> {
  const record = JSON.parse(
    await readFile(join(dirname(box.workspace), INSTANCE_RECORD), 'utf8'),
  ) as InstanceRecord;
  const key = record.lowerKeys.find((k) => k.startsWith('evidence-'));
  if (!key) return undefined;
  return JSON.parse(
    await readFile(join(sandboxPaths(home).image(key), EVIDENCE_RECORD), 'utf8'),
  ) as EvidenceLayer;
}

/**
 * The largest evidence log read (a line per program run: a large build writes tens of MiB); a
 * longer one is refused as evidence, and the build is redone accelerated.
 */
export const MAX_EVIDENCE_LOG_BYTES = 128 * 1024 * 1024;

/**
 * The evidence of a finished native-userland build: the recorder's log (read through the
 * instance's x86_64 cat, which bypasses the recorder), the census of the build tree, the verdict.
 * `sources` are further host folders whose text the census reads (the source tree when it is
 * built out of tree).
 */
export async function collectUserlandEvidence(
  box: ChrootSandbox,
  options: { home?: string; sources?: readonly string[] } = {},
): Promise<UserlandEvidence> {
  const started = Date.now();
  const layer = await instanceEvidenceLayer(box, options.home);
  if (!layer) {
    return judgeUserlandEvidence({ key: '-', samplePerMille: 0 }, undefined, {
      files: 0,
      hits: [],
      count: 0,
    });
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  const read = await box.run(['/native/usr/bin/cat', EVIDENCE_LOG], {
    // the build could have written the log: past the bound it is no evidence (nothing more kept)
    onStdout: (c) => {
      bytes += c.length;
      if (bytes <= MAX_EVIDENCE_LOG_BYTES) chunks.push(c);
    },
    outputCapBytes: 4096,
    timeoutMs: 120_000,
  });
  const complete = read.exitCode === 0 && bytes <= MAX_EVIDENCE_LOG_BYTES;
  const log = complete ? readInvocationLog(Buffer.concat(chunks).toString('latin1')) : undefined;
  const census = await censusBuildText(box.workspace);
  for (const source of options.sources ?? []) {
    const more = await censusBuildText(source);
    census.files += more.files;
    census.count += more.count;
    census.hits.push(...more.hits);
  }
  const judged = judgeUserlandEvidence(layer, log, census);
  const evidence =
    bytes > MAX_EVIDENCE_LOG_BYTES
      ? {
          ...judged,
          accepted: false,
          reason: `the invocation log is larger than ${MAX_EVIDENCE_LOG_BYTES / 1024 ** 2} MiB (${bytes} bytes): it is no evidence`,
        }
      : judged;
  return { ...evidence, evidenceSeconds: Math.round((Date.now() - started) / 100) / 10 };
}
