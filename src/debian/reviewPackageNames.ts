import { uninstallable } from './installablePackages.ts';
import { DEBIAN_PACKAGE_NAME } from './packageName.ts';

/**
 * Package names a model proposed, sorted into the ones apt in the sandbox can install and the
 * reasons for the rest: not a Debian name (policy 5.6.1), or no such package in the sandbox's
 * package lists (`installable`; null: names are checked by form only).
 */
export function reviewPackageNames(
  names: readonly string[],
  installable: ReadonlySet<string> | null,
): { accepted: string[]; problems: string[] } {
  const problems: string[] = [];
  const invalid = names.filter((name) => !DEBIAN_PACKAGE_NAME.test(name));
  if (invalid.length) problems.push(`not Debian package names: ${invalid.join(', ')}`);
  const valid = names.filter((name) => DEBIAN_PACKAGE_NAME.test(name));
  const unknown = uninstallable(valid, installable);
  if (unknown.length) problems.push(`no such package in the sandbox's Debian: ${unknown.join(', ')}`);
  return { accepted: valid.filter((name) => !unknown.includes(name)), problems };
}
