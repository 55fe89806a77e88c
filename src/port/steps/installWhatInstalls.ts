/** Install attempts one set of optional packages may take before the rest is left out. */
export const MAX_OPTIONAL_INSTALLS = 8;

/**
 * Installs as many of `packages` as install together, when one of them may break the install
 * (a package whose maintainer script cannot run in the sandbox): all at once first, then, after
 * a failure, each half on its own, down to single packages, within `maxTries` installs. The
 * caller's `tryInstall` leaves the system as it was when it fails. Returns what installed and
 * what was left out (a failing package, or those the budget did not reach).
 */
export async function installWhatInstalls(
  packages: readonly string[],
  tryInstall: (group: readonly string[]) => Promise<boolean>,
  maxTries = MAX_OPTIONAL_INSTALLS,
): Promise<{ installed: string[]; leftOut: string[]; untried: string[] }> {
  const installed: string[] = [];
  const leftOut: string[] = [];
  const untried: string[] = [];
  const queue: string[][] = packages.length ? [[...packages]] : [];
  let tries = 0;
  for (let group = queue.shift(); group; group = queue.shift()) {
    if (tries >= maxTries) {
      untried.push(...group);
      continue;
    }
    tries++;
    if (await tryInstall(group)) installed.push(...group);
    else if (group.length === 1) leftOut.push(...group);
    else {
      const half = Math.ceil(group.length / 2);
      queue.push(group.slice(0, half), group.slice(half));
    }
  }
  return { installed, leftOut, untried };
}
