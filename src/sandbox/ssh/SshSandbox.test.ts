import { describe, expect, it } from 'vitest';
import { replaceBytes } from './SshSandbox.ts';

describe('replaceBytes', () => {
  it('maps the remote folder back in text and leaves other bytes as they are', () => {
    const from = Buffer.from('/r/build');
    const to = Buffer.from('/build');
    expect(replaceBytes(Buffer.from('cd /r/build/src; ls /r/build'), from, to).toString()).toBe(
      'cd /build/src; ls /build',
    );
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3]);
    expect(replaceBytes(binary, from, to)).toBe(binary);
    const mixed = Buffer.concat([binary, from, binary]);
    expect(replaceBytes(mixed, from, to)).toEqual(Buffer.concat([binary, to, binary]));
  });
});
