import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../../fs/index.ts';
import { SandboxError } from '../errors.ts';
import { isSshUrl, parseSshTarget, type SshTarget } from './parseSshTarget.ts';

/** A target named in RVPORT_HOME/targets/targets.json (written by `rvport target add`). */
export interface TargetRecord {
  name: string;
  url: string;
  /** The private key for it; absent: rvport's own key, else OpenSSH's default key files. */
  identity?: string;
}

/** Where rvport keeps what it knows of remote targets. */
export function targetPaths(home: string) {
  const dir = join(home, 'targets');
  return {
    dir,
    knownHosts: join(dir, 'known_hosts'),
    list: join(dir, 'targets.json'),
    /** rvport's own client key (made by `rvport target add` when none is named). */
    identity: join(dir, 'id_ed25519'),
    instances: join(dir, 'instances'),
  };
}

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

export async function readTargets(home: string): Promise<TargetRecord[]> {
  const text = await readFile(targetPaths(home).list, 'utf8').catch(() => null);
  if (text === null) return [];
  try {
    const parsed = JSON.parse(text) as { targets?: unknown };
    if (!Array.isArray(parsed.targets)) throw new Error('no targets list');
    return parsed.targets.filter(
      (t): t is TargetRecord =>
        typeof t === 'object' &&
        t !== null &&
        typeof (t as TargetRecord).name === 'string' &&
        typeof (t as TargetRecord).url === 'string',
    );
  } catch (error) {
    throw new SandboxError(
      'bad-target',
      `${targetPaths(home).list} is not a target list: ${(error as Error).message}`,
    );
  }
}

/** Adds or replaces a target by name. */
export async function saveTarget(home: string, record: TargetRecord): Promise<void> {
  if (!NAME.test(record.name))
    throw new SandboxError('bad-target', `not a target name: ${JSON.stringify(record.name)}`);
  const targets = (await readTargets(home)).filter((t) => t.name !== record.name && t.url !== record.url);
  await mkdir(targetPaths(home).dir, { recursive: true, mode: 0o700 });
  await writeJsonAtomic(targetPaths(home).list, { targets: [...targets, record] });
}

/** `--target` as given: an `ssh://` URL (with its saved record, if any) or a saved target's name. */
export async function resolveTarget(
  home: string,
  text: string,
): Promise<{ target: SshTarget; record?: TargetRecord }> {
  const targets = await readTargets(home);
  if (isSshUrl(text)) {
    const target = parseSshTarget(text);
    const record = targets.find((t) => t.url === target.url);
    return { target, ...(record ? { record } : {}) };
  }
  const record = targets.find((t) => t.name === text);
  if (!record) {
    throw new SandboxError(
      'bad-target',
      `no target named ${JSON.stringify(text.slice(0, 100))} (a target is ssh://user@host[:port] or a name from rvport target add)`,
      { fix: 'rvport target add ssh://user@host[:port] --name NAME --host-key-fingerprint SHA256:…' },
    );
  }
  return { target: parseSshTarget(record.url), record };
}
