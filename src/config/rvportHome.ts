import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where rvport keeps what outlives a run: sandbox images, the recipe cache, few-shot examples,
 * run checkpoints and logs. `RVPORT_HOME` wins; otherwise the XDG data directory.
 */
export function rvportHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RVPORT_HOME) return resolve(env.RVPORT_HOME);
  const dataHome = env.XDG_DATA_HOME ? resolve(env.XDG_DATA_HOME) : join(homedir(), '.local', 'share');
  return join(dataHome, 'rvport');
}
