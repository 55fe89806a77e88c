import { describe, expect, it } from 'vitest';
import { fetchFlags } from '../batch/portFlags.ts';
import { gitEnvironment } from './git.ts';
import { fetchPolicy, fetchRulesFor, KEYLESS_SSH_COMMAND } from './sourceOrigin.ts';

describe('fetchRulesFor', () => {
  const rules = { origin: 'command-line' as const, allowPrivateAddresses: true };

  it('keeps the rules of the SOURCE that was asked for', () => {
    expect(
      fetchRulesFor('https://code.example/a.git', { source: 'https://code.example/a.git', rules }),
    ).toEqual(rules);
  });

  it('makes a state naming another SOURCE (or any, when none was asked for) origin state', () => {
    expect(fetchRulesFor('ssh://git@lan.example/x', { source: 'https://code.example/a.git', rules })).toEqual(
      {
        ...rules,
        origin: 'state',
      },
    );
    expect(fetchRulesFor('ssh://git@lan.example/x', { rules }).origin).toBe('state');
  });
});

describe('fetchPolicy', () => {
  it('follows redirects only for the SOURCE a person typed', () => {
    const cli = { origin: 'command-line' as const, allowPrivateAddresses: false };
    expect(fetchPolicy(cli, true).followRedirects).toBe(true);
    expect(fetchPolicy(cli, false).followRedirects).toBe(false); // a submodule's URL
    expect(fetchPolicy({ ...cli, origin: 'queue' }, true).followRedirects).toBe(false);
  });
});

describe('keyless git', () => {
  it('has no agent and an ssh that offers no key', () => {
    const saved = process.env.SSH_AUTH_SOCK;
    process.env.SSH_AUTH_SOCK = '/tmp/agent.sock';
    try {
      expect(gitEnvironment().SSH_AUTH_SOCK).toBe('/tmp/agent.sock');
      const env = gitEnvironment({}, true);
      expect(env.SSH_AUTH_SOCK).toBeUndefined();
      expect(env.GIT_SSH_COMMAND).toBe(KEYLESS_SSH_COMMAND);
      for (const option of ['PubkeyAuthentication=no', 'IdentityAgent=none', 'BatchMode=yes', '-F /dev/null'])
        expect(KEYLESS_SSH_COMMAND).toContain(option);
    } finally {
      if (saved === undefined) delete process.env.SSH_AUTH_SOCK;
      else process.env.SSH_AUTH_SOCK = saved;
    }
  });
});

describe('fetchFlags', () => {
  it("marks a queue job's port and passes only the operator's own --allow-private-addresses", () => {
    expect(fetchFlags({ queued: true, allowPrivateAddresses: false })).toEqual(['--source-origin', 'queue']);
    expect(fetchFlags({ queued: false, allowPrivateAddresses: true })).toEqual(['--allow-private-addresses']);
  });
});
