import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readGoModuleZip } from './readGoModuleZip.ts';

const M = 'example.com/m';
const V = 'v1.0.0';
const P = `${M}@${V}/`;

function zip(entries: Record<string, string>, attrs?: Record<string, number>): Uint8Array {
  return zipSync(
    Object.fromEntries(
      Object.entries(entries).map(([n, t]) => [
        n,
        attrs?.[n] !== undefined ? [Buffer.from(t), { os: 3, attrs: attrs[n] as number }] : Buffer.from(t),
      ]),
    ),
  );
}

describe('readGoModuleZip', () => {
  it("reads a module zip's files", () => {
    const files = readGoModuleZip(
      zip({ [`${P}go.mod`]: `module ${M}\n`, [`${P}a.go`]: 'package m\n' }),
      M,
      V,
    );
    expect(files.map((f) => f.name).sort()).toEqual([`${P}a.go`, `${P}go.mod`]);
  });

  it('refuses path traversal, names outside the module, links, case-folded twins and non-zips', () => {
    expect(() => readGoModuleZip(zip({ [`${P}../../../etc/cron.d/x`]: 'x' }), M, V)).toThrow(
      /'\.\.' element/,
    );
    expect(() => readGoModuleZip(zip({ 'example.com/other@v1.0.0/a.go': 'x' }), M, V)).toThrow(/not under/);
    expect(() => readGoModuleZip(zip({ '/etc/passwd': 'x' }), M, V)).toThrow(/not under/);
    // a symbolic link: Unix mode 0o120777 in the high half of the external attributes
    expect(() =>
      readGoModuleZip(zip({ [`${P}link`]: '/etc/shadow' }, { [`${P}link`]: 0o120777 << 16 }), M, V),
    ).toThrow(/a symbolic link/);
    expect(() => readGoModuleZip(zip({ [`${P}A.go`]: 'x', [`${P}a.go`]: 'y' }), M, V)).toThrow(/twice/);
    expect(() => readGoModuleZip(Buffer.from('not a zip at all, just text'), M, V)).toThrow(/not a zip/);
    expect(() => readGoModuleZip(zip({ [`${P}a\\..\\b`]: 'x' }), M, V)).toThrow(/backslash/);
  });
});
