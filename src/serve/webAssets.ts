import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readFileConfined, walkConfined } from '../fs/index.ts';

/** The dashboard's built front end (web/, built by `npm run build` into dist/web). */
export interface WebAssets {
  dir: string;
  files: Map<string, { body: Buffer; type: string }>;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  json: 'application/json',
  map: 'application/json',
};
/** The built front end is a few hundred KiB; this bounds a folder that is not it. */
const MAX_ASSET_BYTES = 8 * 1024 * 1024;

/**
 * Where the built front end is: dist/web beside dist/serve when rvport runs from its build (or
 * an installed package), the checkout's dist/web when it runs from the sources. Null when there
 * is none (a checkout that was never built).
 */
export function findWebAssets(): string | null {
  const candidates = [new URL('../web/', import.meta.url), new URL('../../dist/web/', import.meta.url)];
  for (const url of candidates) {
    const dir = fileURLToPath(url);
    if (existsSync(`${dir}index.html`)) return dir;
  }
  return null;
}

/** The built files, read once at start (they are rvport's own, and small). */
export function loadWebAssets(dir: string): WebAssets {
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const entry of walkConfined(dir, { maxDepth: 4, maxEntries: 1000 }).entries) {
    if (entry.type !== 'file') continue;
    const extension = entry.name.split('.').at(-1) ?? '';
    files.set(entry.path, {
      body: readFileConfined(dir, entry.path, { maxBytes: MAX_ASSET_BYTES }),
      type: TYPES[extension] ?? 'application/octet-stream',
    });
  }
  if (!files.has('index.html')) throw new Error(`${dir} has no index.html`);
  return { dir, files };
}
