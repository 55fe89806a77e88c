import { createHash } from 'node:crypto';
import type { SourceSpec } from '../../sources/index.ts';

/**
 * The checkpoint id of a port: the package name for people reading `runs/`, and a hash of the
 * SOURCE itself, because two sources can give one name (a fork, another folder called `zlib`)
 * and must never resume each other's run. A local path counts as the absolute path it names.
 */
export function portRunId(spec: SourceSpec): string {
  const source = spec.kind === 'directory' || spec.kind === 'tarball' ? spec.path : spec.raw.trim();
  return `port-${spec.name}-${createHash('sha256').update(source).digest('hex').slice(0, 12)}`;
}
