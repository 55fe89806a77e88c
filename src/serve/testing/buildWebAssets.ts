import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadWebAssets, type WebAssets } from '../webAssets.ts';

/** Builds the front end (web/) into a folder of the test's own: tests never use a stale dist/. */
export async function buildWebAssets(): Promise<WebAssets & { cleanupDir: string }> {
  const { build } = await import('vite');
  const dir = mkdtempSync(join(tmpdir(), 'rvport-serve-web-'));
  await build({
    configFile: fileURLToPath(new URL('../../../web/vite.config.ts', import.meta.url)),
    build: { outDir: dir, emptyOutDir: true },
    logLevel: 'error',
  });
  return { ...loadWebAssets(dir), cleanupDir: dir };
}
