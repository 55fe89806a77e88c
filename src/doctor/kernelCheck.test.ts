import { describe, expect, it } from 'vitest';
import { evaluateKernel } from './kernelCheck.ts';

describe('evaluateKernel', () => {
  it('passes 5.11 and later, Debian and distribution suffixes included', () => {
    for (const release of ['5.11.0', '6.1.0-18-amd64', '6.18.44-fc-v669', '10.0']) {
      expect(evaluateKernel({ platform: 'linux', release })[0]?.status).toBe('ok');
    }
  });

  it('fails an older kernel with the version it needs', () => {
    const [check] = evaluateKernel({ platform: 'linux', release: '5.10.0-28-amd64' });
    expect(check).toMatchObject({ id: 'kernel', status: 'fail' });
    expect(check?.detail).toContain('5.10.0-28-amd64 is too old');
    expect(check?.fix).toMatch(/5\.11 or later and reboot/);
    expect(evaluateKernel({ platform: 'linux', release: '4.19.0' })[0]?.status).toBe('fail');
  });

  it('fails another operating system and an unreadable version', () => {
    expect(evaluateKernel({ platform: 'darwin', release: '23.0.0' })[0]).toMatchObject({
      status: 'fail',
      detail: 'rvport needs Linux, this is darwin',
    });
    expect(evaluateKernel({ platform: 'linux', release: 'weird' })[0]?.status).toBe('fail');
  });
});
