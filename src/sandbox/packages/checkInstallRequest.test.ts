import { describe, expect, it } from 'vitest';
import { checkInstallRequest } from './checkInstallRequest.ts';

describe('checkInstallRequest', () => {
  it('takes packages with an architecture and a version', () => {
    expect(() =>
      checkInstallRequest(['libssl-dev', 'zlib1g-dev:riscv64', 'cmake=3.31.6-2', 'g++']),
    ).not.toThrow();
  });

  it('refuses options, shell words and an empty request', () => {
    expect(() => checkInstallRequest(['-o', 'APT::Get::AllowUnauthenticated=1'])).toThrow(
      'not Debian package names: -o, APT::Get::AllowUnauthenticated=1',
    );
    expect(() => checkInstallRequest(['curl;sh'])).toThrow('not Debian package names: curl;sh');
    expect(() => checkInstallRequest([])).toThrow('no packages to install');
  });
});
