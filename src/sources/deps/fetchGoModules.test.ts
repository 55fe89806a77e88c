import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startGoProxy } from '../../../test/helpers/goProxyServer.ts';
import { fetchGoModules } from './fetchGoModules.ts';
import { parseGoSum } from './parseGoSum.ts';

const store = mkdtempSync(join(tmpdir(), 'rvport-gostore-'));
afterAll(() => rmSync(store, { recursive: true, force: true }));

const FILES = { 'go.mod': 'module example.com/Lib\n', 'lib.go': 'package lib\n' };

describe('fetchGoModules', () => {
  it('fetches and checks once, then reuses the store, and fetches again what was damaged there', async () => {
    const proxy = await startGoProxy([{ path: 'example.com/Lib', version: 'v0.2.0', files: FILES }]);
    try {
      const entries = parseGoSum(proxy.goSum);
      const first = await fetchGoModules(entries, { proxy: new URL(proxy.url), store });
      expect(first.items).toEqual([
        expect.objectContaining({ name: 'example.com/Lib', suppliedBy: 'proxy' }),
      ]);
      expect(first.paths).toContain('cache/download/example.com/!lib/@v/v0.2.0.zip');
      const asked = proxy.requests.length;
      const second = await fetchGoModules(entries, { proxy: new URL(proxy.url), store });
      expect(second.items[0]?.suppliedBy).toBe('store');
      expect(proxy.requests.length).toBe(asked);
      writeFileSync(join(store, 'cache/download/example.com/!lib/@v/v0.2.0.zip'), 'damaged');
      const third = await fetchGoModules(entries, { proxy: new URL(proxy.url), store });
      expect(third.items[0]?.suppliedBy).toBe('proxy');
    } finally {
      await proxy.close();
    }
  });

  it("refuses a go.mod that does not match go.sum's /go.mod line", async () => {
    const proxy = await startGoProxy([{ path: 'example.com/other', version: 'v1.0.0', files: FILES }]);
    try {
      // go.sum written for another go.mod: the served one (module example.com/Lib) does not match
      const entries = parseGoSum(proxy.goSum).map((e) => ({
        ...e,
        modHash: 'h1:TIyPZe4MgqvfeYDBFedMoGGpEw/LqOeaOT+nhxU+yHo=',
      }));
      await expect(fetchGoModules(entries, { proxy: new URL(proxy.url), store })).rejects.toMatchObject({
        code: 'hash-mismatch',
        message: expect.stringMatching(/example\.com\/other@v1\.0\.0's go\.mod does not match go\.sum/),
      });
    } finally {
      await proxy.close();
    }
  });
});
