import { describe, expect, it } from 'vitest';
import { isSandboxError } from '../errors.ts';
import { parseSshTarget } from './parseSshTarget.ts';

describe('parseSshTarget', () => {
  it('reads user, host and port', () => {
    expect(parseSshTarget('ssh://rv@board.local:2222')).toEqual({
      user: 'rv',
      host: 'board.local',
      port: 2222,
      url: 'ssh://rv@board.local:2222',
      knownHostsName: '[board.local]:2222',
    });
    const plain = parseSshTarget('ssh://root@10.0.0.7');
    expect(plain.port).toBe(22);
    expect(plain.knownHostsName).toBe('10.0.0.7');
    expect(plain.url).toBe('ssh://root@10.0.0.7');
    expect(parseSshTarget('ssh://u@[::1]:22').knownHostsName).toBe('::1');
    expect(parseSshTarget('ssh://u@[fe80::1]:2200').knownHostsName).toBe('[fe80::1]:2200');
  });

  it.each([
    'ssh://board',
    'ssh://-oProxyCommand=touch@host',
    'ssh://user@-oProxyCommand=x',
    'ssh://user:secret@host',
    'ssh://user@host:0',
    'ssh://user@host:70000',
    'ssh://user@host/path',
    'ssh://user@host?x=1',
    'ssh://us er@host',
    'ssh://user@ho_st',
    'ssh://user@[not-v6]',
    'http://user@host',
    'user@host',
  ])('refuses %s with a clear error', (text) => {
    const error = (() => {
      try {
        parseSshTarget(text);
      } catch (e) {
        return e;
      }
    })();
    expect(isSandboxError(error) && error.code).toBe('bad-target');
    expect((error as Error).message).toMatch(/not an SSH target/);
  });
});
