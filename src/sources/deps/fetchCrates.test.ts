import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCargoRegistry } from '../../../test/helpers/cargoRegistryServer.ts';
import { fetchCrates } from './fetchCrates.ts';

const store = mkdtempSync(join(tmpdir(), 'rvport-cratestore-'));
afterAll(() => rmSync(store, { recursive: true, force: true }));

describe('fetchCrates', () => {
  it('unpacks a checked crate as a directory source cargo accepts, then reuses it from the store', async () => {
    const registry = await startCargoRegistry([
      {
        name: 'leaf',
        version: '1.2.3',
        files: { 'Cargo.toml': '[package]\nname = "leaf"\n', 'src/lib.rs': '//! leaf\n' },
      },
    ]);
    try {
      const checksum = registry.checksums.get('leaf 1.2.3') as string;
      const locked = [{ name: 'leaf', version: '1.2.3', source: 'registry+x', checksum }];
      const first = await fetchCrates(locked, { registry: new URL(registry.indexUrl), store });
      expect(first).toMatchObject({ kind: 'cargo', paths: ['crates/leaf-1.2.3'] });
      expect(first.items[0]).toMatchObject({ suppliedBy: 'registry', hash: `sha256:${checksum}` });
      const sums = JSON.parse(readFileSync(join(store, 'crates/leaf-1.2.3/.cargo-checksum.json'), 'utf8'));
      expect(sums.package).toBe(checksum);
      expect(Object.keys(sums.files).sort()).toEqual(['Cargo.toml', 'src/lib.rs']);
      const downloads = registry.requests.filter((r) => r.endsWith('/download')).length;
      const second = await fetchCrates(locked, { registry: new URL(registry.indexUrl), store });
      expect(second.items[0]?.suppliedBy).toBe('store');
      expect(registry.requests.filter((r) => r.endsWith('/download')).length).toBe(downloads);
    } finally {
      await registry.close();
    }
  });
});
