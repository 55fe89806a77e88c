import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { craftAr, craftDeb } from '../../../test/security/craftAr.ts';
import { type CraftedEntry, craftTar } from '../../../test/security/craftTar.ts';
import { type DebFolderChoice, extractDebFolder } from './extractDebFolder.ts';

const dir = mkdtempSync(join(tmpdir(), 'rvport-deb-'));
const REGISTRY = './usr/share/cargo/registry';
const CRATE = `${REGISTRY}/Foo_Bar-1.2.3`;
/** The crate folder of librust-foo-bar-dev, found the way Debian may spell it. */
const choice: DebFolderChoice = {
  parent: 'usr/share/cargo/registry',
  pick: (names) => names.find((n) => n.toLowerCase().replaceAll('_', '-') === 'foo-bar-1.2.3') ?? null,
};

const folders = (path: string): CraftedEntry[] => {
  const parts = path.split('/');
  return parts.map((_, i) => ({ name: `${parts.slice(0, i + 1).join('/')}/`, type: '5' }));
};
/** A package's data as dpkg-deb writes it: folders first, the crate, its documentation. */
const crate = (extra: CraftedEntry[] = []): CraftedEntry[] => [
  ...folders(CRATE),
  { name: `${CRATE}/.cargo-checksum.json`, type: '0', content: '{"package":"","files":{}}' },
  { name: `${CRATE}/Cargo.toml`, type: '0', content: '[package]\nname = "foo_bar"\nversion = "1.2.3"\n' },
  { name: `${CRATE}/src/`, type: '5' },
  { name: `${CRATE}/src/lib.rs`, type: '0', content: 'pub fn f() {}\n' },
  { name: `${CRATE}/src/alias.rs`, type: '2', linkname: 'lib.rs' },
  ...folders('./usr/share/doc/librust-foo-bar-dev'),
  { name: './usr/share/doc/librust-foo-bar-dev/copyright', type: '0', content: 'MIT\n' },
  ...extra,
];

let count = 0;
async function unpack(deb: Buffer, options: Parameters<typeof extractDebFolder>[4] = {}) {
  const n = count++;
  const file = join(dir, `p${n}.deb`);
  writeFileSync(file, deb);
  const dest = join(dir, `tree${n}`);
  const folder = await extractDebFolder(file, dest, join(dir, `scratch${n}`), choice, options);
  return { dest, folder };
}

describe('extractDebFolder', () => {
  it("takes only the crate's folder, which becomes the tree's root", async () => {
    const { dest, folder } = await unpack(craftDeb(craftTar(crate())));
    expect(folder).toBe('usr/share/cargo/registry/Foo_Bar-1.2.3');
    expect(readdirSync(dest).sort()).toEqual(['.cargo-checksum.json', 'Cargo.toml', 'src']);
    expect(readFileSync(join(dest, 'src', 'lib.rs'), 'utf8')).toBe('pub fn f() {}\n');
    expect(readlinkSync(join(dest, 'src', 'alias.rs'))).toBe('lib.rs');
  });

  it('reads a compressed data member (xz, as Debian ships them)', async () => {
    const xz = execFileSync('xz', ['-c'], { input: craftTar(crate()) });
    const { dest } = await unpack(craftDeb(xz, 'data.tar.xz'));
    expect(readdirSync(dest).sort()).toEqual(['.cargo-checksum.json', 'Cargo.toml', 'src']);
  });

  it.each<[string, CraftedEntry[], RegExp]>([
    [
      'a path with ..',
      [{ name: `${CRATE}/../../../../../../../evil`, type: '0', content: 'x' }],
      /'\.\.' component/,
    ],
    [
      'an absolute path',
      [{ name: `/${dir.slice(1)}/absolute-evil`, type: '0', content: 'x' }],
      /absolute path/,
    ],
    [
      'a link out of the tree',
      [{ name: `${CRATE}/escape`, type: '2', linkname: '../../../../../etc/passwd' }],
      /points outside the tree/,
    ],
    [
      "a link to the package's other files (outside the crate)",
      [{ name: `${CRATE}/doc`, type: '2', linkname: '../../../doc/librust-foo-bar-dev' }],
      /points outside the tree/,
    ],
    [
      'a file under a link',
      [
        { name: `${CRATE}/out`, type: '2', linkname: 'src' },
        { name: `${CRATE}/out/x.rs`, type: '0', content: 'x' },
      ],
      /lies under the symbolic link/,
    ],
    ['a device', [{ name: `${CRATE}/dev`, type: '3' }], /is a character device/],
  ])('refuses %s, writing nothing outside', async (_what, extra, message) => {
    await expect(unpack(craftDeb(craftTar(crate(extra))))).rejects.toMatchObject({
      name: 'SourceError',
      code: 'unsafe-entry',
      message: expect.stringMatching(message),
    });
    expect(existsSync(join(dir, 'evil'))).toBe(false);
    expect(existsSync(join(dir, 'absolute-evil'))).toBe(false);
  });

  it('refuses a crate folder that is a link, and a package without the folder', async () => {
    const linked: CraftedEntry[] = [
      ...folders(REGISTRY),
      ...folders('./usr/share/real'),
      { name: CRATE, type: '2', linkname: '../../real' },
      { name: './usr/share/real/Cargo.toml', type: '0', content: 'x' },
    ];
    await expect(unpack(craftDeb(craftTar(linked)))).rejects.toThrow(/has no folder .*Foo_Bar-1.2.3/);
    const other = craftTar([...folders(`${REGISTRY}/other-0.1.0`), ...folders('./usr/share/doc/x')]);
    await expect(unpack(craftDeb(other))).rejects.toThrow(
      /has no matching folder under \/usr\/share\/cargo\/registry \(it has other-0.1.0\)/,
    );
  });

  it('refuses what is no binary package, and an oversized member or file', async () => {
    const data = craftTar(crate());
    await expect(unpack(craftAr([{ name: 'data.tar', content: data }]))).rejects.toThrow(
      /not a Debian binary package/,
    );
    await expect(
      unpack(
        craftAr([
          { name: 'debian-binary', content: '2.0\n' },
          { name: 'control.tar', content: 'x' },
        ]),
      ),
    ).rejects.toThrow(/no data.tar member/);
    await expect(unpack(craftDeb(data), { limits: { maxBytes: 4096 } })).rejects.toMatchObject({
      code: 'archive-too-large',
    });
    // a small member that unpacks to more than the limit: the tarball's own limit holds
    const big = craftTar(crate([{ name: `${CRATE}/big.bin`, type: '0', content: 'x'.repeat(200_000) }]));
    const xz = execFileSync('xz', ['-c'], { input: big });
    expect(xz.length).toBeLessThan(10_000);
    await expect(unpack(craftDeb(xz, 'data.tar.xz'), { limits: { maxBytes: 10_000 } })).rejects.toMatchObject(
      {
        code: 'archive-too-large',
        message: expect.stringMatching(/unpacks to more than 10000 bytes/),
      },
    );
  });
});
