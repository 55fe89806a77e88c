import { isSourceError, parseSource, type SourceSpec } from '../../sources/index.ts';
import type { PortJob } from './PortJob.ts';
import { printable } from './printable.ts';

export type JobCheck = { ok: true; source: string; name: string } | { ok: false; reason: string };

/**
 * A queue job is anyone's who can write to the queue: its SOURCE passes the port's own rules
 * (`parseSource`: metacharacters, schemes, Debian names), its name must be the one that SOURCE
 * gives (so it cannot name a folder outside the worker's OUT), and a path on the worker's own
 * machine (a folder, a tarball, a file:// URL) is refused unless the worker allows local sources.
 */
export function checkPortJob(job: PortJob, options: { allowLocalSources: boolean; cwd?: string }): JobCheck {
  const check = checkJob(job, options);
  return check.ok ? check : { ok: false, reason: printable(check.reason) };
}

function checkJob(job: PortJob, options: { allowLocalSources: boolean; cwd?: string }): JobCheck {
  const local = {
    ok: false as const,
    reason: `the SOURCE ${JSON.stringify(job.source)} is a path on the worker's machine; this worker takes local sources only with --allow-local-sources`,
  };
  // Refused before parseSource looks at the file system: the reason must not tell a job's
  // author which paths exist here.
  if (!options.allowLocalSources && namesLocalPath(job.source)) return local;
  let spec: SourceSpec;
  try {
    spec = parseSource(job.source, options.cwd);
  } catch (error) {
    if (!isSourceError(error)) throw error;
    return { ok: false, reason: error.message };
  }
  if (isLocal(spec) && !options.allowLocalSources) return local;
  if (job.name !== spec.name) {
    return {
      ok: false,
      reason: `the job's package name ${JSON.stringify(job.name)} is not the one its SOURCE gives ('${spec.name}')`,
    };
  }
  const source = spec.kind === 'directory' || spec.kind === 'tarball' ? spec.path : job.source;
  return { ok: true, source, name: spec.name };
}

/** Every SOURCE but a path has a colon (`debian:`, `scheme://`, `user@host:path`); file: is a path. */
function namesLocalPath(source: string): boolean {
  const s = source.trim();
  return /^file:/i.test(s) || !s.includes(':') || /^[/.~]/.test(s);
}

function isLocal(spec: SourceSpec): boolean {
  return (
    spec.kind === 'directory' ||
    spec.kind === 'tarball' ||
    (spec.kind === 'git' && spec.url.toLowerCase().startsWith('file:'))
  );
}
