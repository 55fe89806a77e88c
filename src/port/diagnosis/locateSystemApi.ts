import { shellQuote } from '../../process/shellQuote.ts';
import type { ApiUse } from './apiUsesIn.ts';

/** A use of a name a system library's headers no longer declare, and whose the library is. */
export interface SystemApiDrift {
  use: ApiUse;
  /** The system header that declares the type (a member) or the nearest name (a function). */
  header: string;
  /** The Debian package that ships the header, and its version in the sandbox. */
  package?: string;
  version?: string;
  /**
   * A member the header still spells out, under a condition this version leaves off (FFmpeg's
   * `#if FF_API_OLD_CHANNEL_LAYOUT` fields).
   */
  guarded?: boolean;
}

export type RunInSandbox = (command: string) => Promise<{ exitCode: number; stdout: string }>;

/** Uses looked up in one port (each is a few greps of the system headers). */
export const MAX_LOOKUPS = 4;
const SYSTEM_INCLUDE = '/usr/include';
const HEADERS = "--include='*.h' --include='*.hh' --include='*.hpp' --include='*.hxx' --include='*.H'";

/**
 * The lookup of one use in the sandbox, as a shell script: where the type (or the compiler's
 * nearest name) is declared, first in the build tree (then the name is the project's own: no
 * drift) and then under /usr/include; whether the name itself is still declared there (then it is
 * a missing #include, not a removed API); which package ships the header.
 */
export function lookupScript(use: ApiUse, tree: string, include = SYSTEM_INCLUDE): string | null {
  // C++'s `CryptoPP::AES` is looked up as `AES`
  const anchor = (use.kind === 'member' ? use.of : use.suggestion)?.split('::').at(-1);
  if (!anchor || !/^[A-Za-z_]\w*$/.test(anchor) || !/^[A-Za-z_]\w*$/.test(use.symbol)) return null;
  const definition =
    use.kind === 'member'
      ? `(struct|union|class)[[:space:]]+${anchor}([[:space:]]*[{]|[[:space:]]*$)|[}][[:space:]]*${anchor}[[:space:]]*;`
      : `(^|[^[:alnum:]_])${anchor}[[:space:]]*[(]|#[[:space:]]*define[[:space:]]+${anchor}([^[:alnum:]_]|$)|(^|[^[:alnum:]_])${anchor}[[:space:]]*[,=]`;
  const member = `[[:alnum:]_*)][[:space:]*]+${use.symbol}[[:space:]]*(;|[[]|:[[:space:]]*[0-9])`;
  return [
    `pattern=${shellQuote(definition)}`,
    `tree=${shellQuote(tree)}`,
    `include=${shellQuote(include)}`,
    `if grep -rqE ${HEADERS} -e "$pattern" "$tree" 2>/dev/null; then echo in-tree; exit 0; fi`,
    `header=$(grep -rlE ${HEADERS} -e "$pattern" "$include" 2>/dev/null | head -n 1)`,
    '[ -n "$header" ] || exit 0',
    'echo "header=$header"',
    use.kind === 'member'
      ? `if grep -qE ${shellQuote(member)} "$header"; then echo guarded; fi`
      : `if grep -rqw ${HEADERS} -e ${shellQuote(use.symbol)} "$include" 2>/dev/null; then echo declared; fi`,
    `package=$(dpkg -S "$header" 2>/dev/null | head -n 1 | cut -d: -f1)`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's field format, not a template
    '[ -n "$package" ] && echo "package=$package" && echo "version=$(dpkg-query -W -f=\'${Version}\' "$package" 2>/dev/null)"',
    'exit 0',
  ].join('\n');
}

/** What the lookup printed, as a drift, or null (the project's own name, a missing #include, nothing found). */
export function parseLookup(use: ApiUse, stdout: string, include = SYSTEM_INCLUDE): SystemApiDrift | null {
  const lines = stdout.split('\n').map((l) => l.trim());
  if (lines.includes('in-tree') || lines.includes('declared')) return null;
  const field = (name: string) =>
    lines.find((l) => l.startsWith(`${name}=`))?.slice(name.length + 1) || undefined;
  const header = field('header');
  if (!header?.startsWith(`${include}/`)) return null;
  const drift: SystemApiDrift = { use, header };
  const pkg = field('package');
  if (pkg && /^[a-z0-9][a-z0-9+.-]*$/.test(pkg)) drift.package = pkg;
  const version = field('version');
  if (drift.package && version && /^[\w.+:~-]+$/.test(version)) drift.version = version;
  if (lines.includes('guarded')) drift.guarded = true;
  return drift;
}

/**
 * The uses (apiUsesIn) that are a system library's API the headers in the sandbox no longer
 * have, looked up in the sandbox (its /usr/include and dpkg database); the first MAX_LOOKUPS
 * uses that can be looked up at all.
 */
export async function locateSystemApi(
  uses: readonly ApiUse[],
  tree: string,
  run: RunInSandbox,
  include = SYSTEM_INCLUDE,
): Promise<SystemApiDrift[]> {
  const drifts: SystemApiDrift[] = [];
  let lookups = 0;
  for (const use of uses) {
    const script = lookupScript(use, tree, include);
    if (!script) continue;
    if (++lookups > MAX_LOOKUPS) break;
    const result = await run(script);
    if (result.exitCode !== 0) continue;
    const drift = parseLookup(use, result.stdout, include);
    if (drift) drifts.push(drift);
  }
  return drifts;
}
