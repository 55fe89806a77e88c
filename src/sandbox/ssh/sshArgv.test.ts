import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseSshTarget } from './parseSshTarget.ts';
import { remoteQuote, sshArgv } from './sshArgv.ts';

describe('sshArgv', () => {
  const target = parseSshTarget('ssh://rv@board:2222');
  const argv = sshArgv(target, { knownHosts: '/h/targets/known_hosts', identity: '/h/targets/id' }, 'true');
  const option = (name: string) => argv.find((a) => a.startsWith(`${name}=`));

  it('ignores the user ssh config and never prompts', () => {
    expect(argv.slice(0, 3)).toEqual(['ssh', '-F', '/dev/null']);
    expect(option('BatchMode')).toBe('BatchMode=yes');
    expect(option('StrictHostKeyChecking')).toBe('StrictHostKeyChecking=yes');
    expect(option('UserKnownHostsFile')).toBe('UserKnownHostsFile=/h/targets/known_hosts');
    expect(option('GlobalKnownHostsFile')).toBe('GlobalKnownHostsFile=/dev/null');
    expect(option('PasswordAuthentication')).toBe('PasswordAuthentication=no');
    expect(option('KbdInteractiveAuthentication')).toBe('KbdInteractiveAuthentication=no');
  });

  it('uses only the named key and forwards nothing', () => {
    expect(option('IdentitiesOnly')).toBe('IdentitiesOnly=yes');
    expect(option('IdentityFile')).toBe('IdentityFile=/h/targets/id');
    expect(option('IdentityAgent')).toBe('IdentityAgent=none');
    expect(option('ForwardAgent')).toBe('ForwardAgent=no');
    expect(option('ForwardX11')).toBe('ForwardX11=no');
    expect(option('ClearAllForwardings')).toBe('ClearAllForwardings=yes');
    expect(option('PermitLocalCommand')).toBe('PermitLocalCommand=no');
  });

  it('ends with the port, the user, -- and the host, then the command', () => {
    expect(argv.slice(-7)).toEqual(['-p', '2222', '-l', 'rv', '--', 'board', 'true']);
  });

  it('is accepted by the installed OpenSSH client', () => {
    // -G prints the configuration ssh would use and exits without connecting
    const printed = execFileSync(argv[0] ?? 'ssh', ['-G', ...argv.slice(1, -1)], { encoding: 'utf8' });
    expect(printed).toMatch(/^batchmode yes$/m);
    expect(printed).toMatch(/^stricthostkeychecking true$/m);
    expect(printed).toMatch(/^identitiesonly yes$/m);
    expect(printed).toMatch(/^port 2222$/m);
    expect(printed).toMatch(/^user rv$/m);
    expect(printed).toMatch(/^controlmaster false$/m);
  });
});

describe('remoteQuote', () => {
  it('quotes what the shell would read', () => {
    expect(remoteQuote('plain/path-1.c')).toBe('plain/path-1.c');
    expect(remoteQuote("it's $HOME; rm -rf /")).toBe(`'it'\\''s $HOME; rm -rf /'`);
    expect(
      execFileSync('/bin/sh', ['-c', `printf %s ${remoteQuote("a'b $x `id`")}`], { encoding: 'utf8' }),
    ).toBe("a'b $x `id`");
  });
});
