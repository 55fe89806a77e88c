import { join } from 'node:path';
import { rvportHome } from '../config/rvportHome.ts';

/** The recipe cache lives in RVPORT_HOME (`recipes/<package>/<image>.json`). */
export function recipeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(rvportHome(env), 'recipes');
}
