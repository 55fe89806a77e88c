import { describe, expect, it } from 'vitest';
import { classifySshFailure } from './classifySshFailure.ts';
import { parseSshTarget } from './parseSshTarget.ts';

const target = parseSshTarget('ssh://rv@127.0.0.1:2222');

describe('classifySshFailure', () => {
  it('tells an unknown host key from a changed one', () => {
    const unknown = classifySshFailure(
      target,
      255,
      'No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.\r\nHost key verification failed.\r\n',
    );
    expect(unknown?.code).toBe('host-key-unknown');
    expect(unknown?.fix).toMatch(/rvport target add ssh:\/\/rv@127\.0\.0\.1:2222 --host-key-fingerprint/);
    const changed = classifySshFailure(
      target,
      255,
      '@@@@@@@\r\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\r\n@@@@@@@\r\nHost key verification failed.\r\n',
    );
    expect(changed?.code).toBe('host-key-changed');
  });

  it('names a refused key and an unreachable machine, with the remote text made printable', () => {
    const refused = classifySshFailure(
      target,
      255,
      'root@127.0.0.1: Permission denied (publickey).\u001b[2J',
    );
    expect(refused?.code).toBe('target-unreachable');
    expect(refused?.message).toContain('\\x1b[2J');
    expect(
      classifySshFailure(target, 255, 'ssh: connect to host 127.0.0.1 port 2222: Connection refused')?.code,
    ).toBe('target-unreachable');
  });

  it('leaves a remote command exit status alone', () => {
    expect(classifySshFailure(target, 1, 'Host key verification failed.')).toBeNull();
    expect(classifySshFailure(target, 255, 'the command itself exited 255')).toBeNull();
  });
});
