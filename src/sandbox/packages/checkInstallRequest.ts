import { SandboxError } from '../errors.ts';

/** What an install request may name: a package, an optional `:arch` and an optional `=version`. */
export const INSTALLABLE_PACKAGE = /^[a-z0-9][a-z0-9+.-]+(:[a-z0-9]+)?(=[A-Za-z0-9.+~:-]+)?$/;

/**
 * Refuses an install request before anything runs: an empty one, or one that names anything but
 * Debian packages (an option or a shell word from a plan or an LLM answer never reaches apt).
 */
export function checkInstallRequest(packages: readonly string[]): void {
  const bad = packages.filter((p) => !INSTALLABLE_PACKAGE.test(p));
  if (bad.length > 0) throw new SandboxError('sandbox-failed', `not Debian package names: ${bad.join(', ')}`);
  if (packages.length === 0) throw new SandboxError('sandbox-failed', 'no packages to install');
}
