import type { FetchPolicy } from './pinnedFetchConfig.ts';

/**
 * Who chose a SOURCE: the person running rvport (`command-line`), or something rvport read: a
 * queue job (`queue`), a port's state (`state`: a resumed checkpoint, a replayed OUT/NAME), a
 * recipe-cache entry (`cache`). Only a person's SOURCE may use what belongs to the host user:
 * ssh with their keys and agent, redirects from the URL they named.
 */
export type SourceOrigin = 'command-line' | 'queue' | 'state' | 'cache';

export const SOURCE_ORIGINS: readonly SourceOrigin[] = ['command-line', 'queue', 'state', 'cache'];

/** What host-side fetches of one source may reach. */
export interface FetchRules {
  origin: SourceOrigin;
  /** `--allow-private-addresses`: loopback, LAN and reserved addresses may be fetched from. */
  allowPrivateAddresses: boolean;
}

export const DEFAULT_FETCH_RULES: FetchRules = { origin: 'command-line', allowPrivateAddresses: false };

export function isTrustedOrigin(origin: SourceOrigin): boolean {
  return origin === 'command-line';
}

/**
 * An ssh that offers no key: no agent, no identity file, no host-based or GSSAPI login, no user
 * or system ssh_config (`-F /dev/null`), no shared connection. Given to every host git of a
 * source from an untrusted origin, as a second wall behind the refusal of ssh SOURCEs.
 */
export const KEYLESS_SSH_COMMAND = [
  'ssh -F /dev/null -o BatchMode=yes -o PubkeyAuthentication=no -o IdentitiesOnly=yes',
  '-o IdentityAgent=none -o HostbasedAuthentication=no -o GSSAPIAuthentication=no -o ControlPath=none',
].join(' ');

/** The SOURCE a port or replay was asked for (absent: none in particular) and its rules. */
export interface AskedSource {
  source?: string;
  rules: FetchRules;
}

/**
 * The rules of the SOURCE `spec` a state names: the asked SOURCE's rules when it is that one,
 * origin `state` when it is another (a forged or foreign checkpoint or state.json).
 */
export function fetchRulesFor(spec: string, asked: AskedSource): FetchRules {
  return asked.source === spec ? asked.rules : { ...asked.rules, origin: 'state' };
}

/** The fetch policy of a URL: `chosen` when it is the SOURCE itself (not a submodule's URL). */
export function fetchPolicy(rules: FetchRules, chosen: boolean): FetchPolicy {
  return {
    allowPrivateAddresses: rules.allowPrivateAddresses,
    followRedirects: chosen && isTrustedOrigin(rules.origin),
  };
}
