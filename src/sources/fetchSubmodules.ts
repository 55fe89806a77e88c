import { existsSync, realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git } from './git.ts';
import { pinnedFetchConfig } from './pinnedFetchConfig.ts';
import { publicAddresses } from './publicAddress.ts';
import { isSourceError } from './SourceError.ts';
import type { StepOptions } from './StepOptions.ts';
import { DEFAULT_FETCH_RULES, type FetchRules, fetchPolicy, isTrustedOrigin } from './sourceOrigin.ts';

/** Nested submodules deeper than this are not fetched. */
export const MAX_SUBMODULE_DEPTH = 8;

/** How a URL is reached: credential-free web, ssh (the host user's keys), git://, local files. */
export type Transport =
  | { kind: 'web' }
  | { kind: 'ssh'; host: string }
  | { kind: 'git'; host: string }
  | { kind: 'local'; path: string }
  | { kind: 'other' };

/** Where the top-level source came from: submodules are judged against it. */
export type TopSource = { kind: 'remote'; url: string } | { kind: 'local'; root: string };

const SCP_LIKE = /^(?:[^@/:]+@)?([^/:]+):(?!\/\/)/;

export function transportOf(url: string): Transport {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'https' || scheme === 'http') return { kind: 'web' };
  if (scheme === 'ssh' || scheme === 'git+ssh' || scheme === 'ssh+git') {
    return { kind: 'ssh', host: hostOf(url) };
  }
  if (scheme === 'git') return { kind: 'git', host: hostOf(url) };
  if (scheme === 'file') {
    try {
      return { kind: 'local', path: fileURLToPath(url) };
    } catch {
      return { kind: 'other' };
    }
  }
  if (scheme !== undefined || url.includes('::')) return { kind: 'other' };
  if (url.startsWith('/') || url.startsWith('./') || url.startsWith('../'))
    return { kind: 'local', path: url };
  const scp = SCP_LIKE.exec(url);
  if (scp?.[1] && !url.startsWith('-')) return { kind: 'ssh', host: scp[1].toLowerCase() };
  return { kind: 'other' };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

function realOrResolved(path: string): string {
  const absolute = resolve(path);
  return existsSync(absolute) ? realpathSync(absolute) : absolute;
}

/**
 * Whether a submodule URL (as git resolved it) may be fetched, or why not. Web URLs (https,
 * http) are always allowed: they carry no host credential (no credential helper is configured)
 * and reach only what the top-level remote could name anyway. ssh and git:// only when the top
 * level used the same transport to the same host: a public repository must not make rvport use
 * the host's ssh keys on hosts the user did not choose. Local paths and file:// only when the
 * top-level source itself was local and the path resolves (links followed) strictly inside that
 * repository's folder: a tree must not pull any other repository of the host into the build.
 * Everything else (`ext::`, transport helpers, options) is refused.
 */
export function submoduleRefusal(top: TopSource, url: string): string | null {
  const sub = transportOf(url);
  if (sub.kind === 'web') return null;
  if (sub.kind === 'other') return `the URL ${JSON.stringify(url)} uses a transport rvport does not allow`;
  if (sub.kind === 'local') {
    if (top.kind !== 'local') return `a local URL (${url}) is not allowed in a remote source`;
    const root = realOrResolved(top.root);
    const target = realOrResolved(sub.path);
    if (!target.startsWith(root + sep))
      return `the local URL ${url} is outside the source repository ${top.root}`;
    return null;
  }
  const topTransport = top.kind === 'remote' ? transportOf(top.url) : null;
  if (topTransport?.kind !== sub.kind || topTransport.host !== sub.host) {
    return `a ${sub.kind} URL (${url}) is allowed only when the source itself is a ${sub.kind} URL of host ${sub.host}`;
  }
  return null;
}

/** The `protocol.*.allow` settings that let git itself refuse anything the rule did not allow. */
function protocolConfig(top: TopSource): string[] {
  const allowed = ['https', 'http'];
  if (top.kind === 'local') allowed.push('file');
  else {
    const t = transportOf(top.url).kind;
    if (t === 'ssh' || t === 'git') allowed.push(t);
  }
  return ['protocol.allow=never', ...allowed.map((p) => `protocol.${p}.allow=always`)];
}

function configEntries(out: string, suffix: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of out.split('\n')) {
    const space = line.indexOf(' ');
    if (space === -1) continue;
    const key = line.slice(0, space);
    if (key.startsWith('submodule.') && key.endsWith(suffix))
      entries.set(key.slice('submodule.'.length, -suffix.length), line.slice(space + 1));
  }
  return entries;
}

async function configList(args: string[], cwd: string, options: StepOptions): Promise<string> {
  try {
    return await git(['config', '--no-includes', ...args], { cwd, signal: options.signal });
  } catch {
    return ''; // no match
  }
}

/**
 * The `-c` settings that fetch one allowed submodule URL: a web URL's addresses checked and
 * pinned, redirects off (nobody chose this URL); a git:// URL's host checked (git's own
 * transport takes no pinned address). A refusal names the URL and the address.
 */
async function submoduleFetchConfig(
  url: string,
  rules: FetchRules,
): Promise<{ config: string[] } | { refused: string }> {
  const transport = transportOf(url);
  try {
    if (transport.kind === 'web')
      return { config: await pinnedFetchConfig([url], fetchPolicy(rules, false)) };
    if (transport.kind === 'git' && !rules.allowPrivateAddresses) await publicAddresses(transport.host, url);
    return { config: [] };
  } catch (error) {
    if (!isSourceError(error)) throw error;
    return { refused: error.message };
  }
}

export interface SubmoduleResult {
  submodules: 'none' | 'fetched' | 'unreachable';
  warnings: string[];
}

/**
 * Fetches the submodules of a fresh clone at `tree` (and theirs), each URL checked by
 * `submoduleRefusal` after git resolved it; refused and unreachable ones are warnings, the
 * clone stays usable. Update commands from `.gitmodules` are overridden (`--checkout`).
 */
export async function fetchSubmodules(
  tree: string,
  top: TopSource,
  options: StepOptions,
  depth = 0,
): Promise<SubmoduleResult> {
  const tracked = await git(['ls-files', '--', '.gitmodules'], { cwd: tree, signal: options.signal });
  if (tracked.trim() === '') return { submodules: 'none', warnings: [] };
  if (depth >= MAX_SUBMODULE_DEPTH) {
    return {
      submodules: 'unreachable',
      warnings: [`submodules of ${tree} are nested too deep; not fetched`],
    };
  }
  const warnings: string[] = [];
  let complete = true;
  try {
    await git(['submodule', 'init'], { cwd: tree, signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    complete = false;
    warnings.push(`some submodules are not described in .gitmodules: ${(error as Error).message}`);
  }
  const paths = configEntries(
    await configList(['--file', '.gitmodules', '--get-regexp', '^submodule\\..*\\.path$'], tree, options),
    '.path',
  );
  const urls = configEntries(
    await configList(['--local', '--get-regexp', '^submodule\\..*\\.url$'], tree, options),
    '.url',
  );
  const rules = options.fetch ?? DEFAULT_FETCH_RULES;
  const allowed: string[] = [];
  const fetchConfig = new Set<string>();
  for (const [name, url] of urls) {
    const path = paths.get(name);
    const rule = path === undefined ? 'it has no path' : submoduleRefusal(top, url);
    const fetch = rule ? null : await submoduleFetchConfig(url, rules);
    const why = rule ?? (fetch && 'refused' in fetch ? fetch.refused : null);
    if (why || path === undefined) {
      complete = false;
      warnings.push(`submodule ${name} refused: ${why}`);
      await git(['config', '--local', '--unset-all', `submodule.${name}.url`], {
        cwd: tree,
        signal: options.signal,
      }).catch(() => {});
      continue;
    }
    for (const setting of fetch && 'config' in fetch ? fetch.config : []) fetchConfig.add(setting);
    allowed.push(path);
  }
  if (allowed.length === 0) return { submodules: 'unreachable', warnings };
  options.log?.(`fetching ${allowed.length} submodule(s)`);
  try {
    await git(['submodule', 'update', '--checkout', '--no-recommend-shallow', '--', ...allowed], {
      cwd: tree,
      signal: options.signal,
      config: [...protocolConfig(top), ...fetchConfig],
      keyless: !isTrustedOrigin(rules.origin),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    complete = false;
    warnings.push(`some submodules could not be fetched: ${error instanceof Error ? error.message : error}`);
  }
  for (const path of allowed) {
    const dir = join(tree, path);
    if (!existsSync(join(dir, '.git'))) continue;
    const nested = await fetchSubmodules(dir, top, options, depth + 1);
    warnings.push(...nested.warnings);
    if (nested.submodules === 'unreachable') complete = false;
  }
  return { submodules: complete ? 'fetched' : 'unreachable', warnings };
}
