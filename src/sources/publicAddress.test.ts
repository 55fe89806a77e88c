import { describe, expect, it } from 'vitest';
import { pinnedFetchConfig } from './pinnedFetchConfig.ts';
import { isPublicAddress, type Lookup, publicAddresses } from './publicAddress.ts';

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.255.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.251',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::127.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:a00:1',
    '::ffff:192.168.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::1',
    '100::1',
    '2001::1',
    '2001:db8::1',
    '2002:7f00:1::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'febf::1',
    'fec0::1',
    'ff02::1',
    'not-an-address',
    '',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '223.255.255.255',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2600::1',
    '2a00:1450::1',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

const fakeLookup =
  (answers: Record<string, string[]>): Lookup =>
  async (host) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('publicAddresses', () => {
  it('refuses a name with one private address among public ones, naming the URL and the address', async () => {
    const lookup = fakeLookup({ 'mixed.example': ['93.184.215.14', '10.0.0.5'] });
    await expect(
      publicAddresses('mixed.example', 'https://mixed.example/x.git', lookup),
    ).rejects.toMatchObject({
      code: 'private-address',
      message: expect.stringContaining('https://mixed.example/x.git reaches 10.0.0.5'),
    });
  });

  it('judges a literal address without resolving it', async () => {
    const lookup: Lookup = async () => {
      throw new Error('resolved');
    };
    expect(await publicAddresses('8.8.8.8', 'http://8.8.8.8/', lookup)).toEqual(['8.8.8.8']);
    await expect(publicAddresses('::1', 'http://[::1]/', lookup)).rejects.toMatchObject({
      code: 'private-address',
    });
  });

  it('says so when a name does not resolve', async () => {
    await expect(
      publicAddresses('nowhere.example', 'https://nowhere.example/', fakeLookup({})),
    ).rejects.toMatchObject({ code: 'acquire' });
  });
});

describe('pinnedFetchConfig', () => {
  const lookup = fakeLookup({ 'code.example': ['93.184.215.14', '2606:2800:21f:cb07::1'] });
  const strict = { allowPrivateAddresses: false, followRedirects: false };

  it('pins every judged address of each host and port, and turns redirects off', async () => {
    expect(
      await pinnedFetchConfig(
        ['https://code.example/a.git', 'http://code.example:8080/b.git'],
        strict,
        lookup,
      ),
    ).toEqual([
      'http.followRedirects=false',
      'http.curloptResolve=code.example:443:93.184.215.14,[2606:2800:21f:cb07::1]',
      'http.curloptResolve=code.example:8080:93.184.215.14,[2606:2800:21f:cb07::1]',
    ]);
  });

  it('pins nothing for a literal address, and checks nothing when private addresses are allowed', async () => {
    expect(await pinnedFetchConfig(['https://8.8.8.8/a.git'], strict, lookup)).toEqual([
      'http.followRedirects=false',
    ]);
    expect(
      await pinnedFetchConfig(
        ['http://127.0.0.1/a.git'],
        { allowPrivateAddresses: true, followRedirects: true },
        lookup,
      ),
    ).toEqual([]);
  });
});
