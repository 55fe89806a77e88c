import { describe, expect, it } from 'vitest';
import { crateDownloadUrl, cratePrefix } from './crateDownloadUrl.ts';

const SUM = 'ab'.repeat(32);

describe('crateDownloadUrl', () => {
  it("follows cargo's dl rules: the default path, or the markers replaced", () => {
    expect(crateDownloadUrl('http://127.0.0.1:9/api/v1/crates/', 'serde', '1.0.0', SUM)).toBe(
      'http://127.0.0.1:9/api/v1/crates/serde/1.0.0/download',
    );
    expect(
      crateDownloadUrl('https://x/{prefix}/{crate}/{crate}-{version}.crate', 'Serde', '1.0.0', SUM),
    ).toBe('https://x/Se/rd/Serde/Serde-1.0.0.crate');
    expect(crateDownloadUrl('https://x/{lowerprefix}/{sha256-checksum}', 'Abc', '0.1.0', SUM)).toBe(
      `https://x/3/a/${SUM}`,
    );
    expect(cratePrefix('a')).toBe('1');
    expect(cratePrefix('ab')).toBe('2');
  });

  it("refuses names and versions from a lock that would change the URL's path", () => {
    expect(() => crateDownloadUrl('http://x', '../admin', '1.0.0', SUM)).toThrow(/not a crate name/);
    expect(() => crateDownloadUrl('http://x', 'a', '1.0.0/../../x', SUM)).toThrow(/not a crate version/);
    expect(() => crateDownloadUrl('http://x', 'a', '1.0', SUM)).toThrow(/not a crate version/);
  });
});
