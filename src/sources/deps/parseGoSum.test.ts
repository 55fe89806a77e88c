import { describe, expect, it } from 'vitest';
import { parseGoSum } from './parseGoSum.ts';

const H1 = 'h1:TIyPZe4MgqvfeYDBFedMoGGpEw/LqOeaOT+nhxU+yHo=';
const H2 = 'h1:NIvaJDMOsjHA8n1jAhLSgzrAzy1Hgr+hNrb57e+94F0=';

describe('parseGoSum', () => {
  it('pairs the zip and go.mod lines of a version; a go.mod-only version has no zip hash', () => {
    const text = [
      `github.com/google/uuid v1.6.0 ${H2}`,
      `github.com/google/uuid v1.6.0/go.mod ${H1}`,
      `golang.org/x/sys v0.1.0/go.mod ${H1}`,
      '',
    ].join('\n');
    expect(parseGoSum(text)).toEqual([
      { module: 'github.com/google/uuid', version: 'v1.6.0', zipHash: H2, modHash: H1 },
      { module: 'golang.org/x/sys', version: 'v0.1.0', modHash: H1 },
    ]);
  });

  it('refuses what it cannot check rather than skipping it', () => {
    expect(() => parseGoSum(`a.com/b v1.0.0 h2:${H1.slice(3)}\n`)).toThrow(/go\.sum:1: not a go\.sum line/);
    expect(() => parseGoSum('a.com/b v1.0.0\n')).toThrow(/not a go\.sum line/);
    expect(() => parseGoSum(`a.com/b v1.0.0 ${H1}\na.com/b v1.0.0 ${H2}\n`)).toThrow(
      /two hashes for a\.com\/b v1\.0\.0/,
    );
  });
});
