import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { escapeModulePath, escapeModuleVersion } from '../../src/sources/deps/escapeModulePath.ts';
import { goDirHash, goModHash } from '../../src/sources/deps/goDirHash.ts';

/** A module version the proxy serves: its files (go.mod among them), relative to the module root. */
export interface ProxyModule {
  path: string;
  version: string;
  files: Record<string, string>;
  /** Serve a zip whose files differ from the ones go.sum is written for (a tampered download). */
  tamper?: boolean;
}

export interface GoProxy {
  url: string;
  /** go.sum lines for every module served, as go would write them for the untampered files. */
  goSum: string;
  /** Requests seen, by path. */
  requests: string[];
  close(): Promise<void>;
}

/** A real module zip (Go's layout: every file under `path@version/`) of these files. */
export function moduleZip(path: string, version: string, files: Record<string, string>): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, text] of Object.entries(files)) entries[`${path}@${version}/${name}`] = Buffer.from(text);
  return zipSync(entries, { level: 6 });
}

/**
 * A Go module proxy on 127.0.0.1 speaking the GOPROXY protocol (`/<escaped path>/@v/list`,
 * `<version>.info`, `.mod`, `.zip`), serving real module zips made of the given files.
 */
export async function startGoProxy(modules: readonly ProxyModule[]): Promise<GoProxy> {
  const routes = new Map<string, { type: string; body: Uint8Array }>();
  const sums: string[] = [];
  for (const m of modules) {
    const base = `/${escapeModulePath(m.path)}/@v/${escapeModuleVersion(m.version)}`;
    const goMod = Buffer.from(m.files['go.mod'] ?? `module ${m.path}\n`);
    const honest = moduleZip(m.path, m.version, m.files);
    const served = m.tamper
      ? moduleZip(m.path, m.version, { ...m.files, 'evil.go': 'package evil\n' })
      : honest;
    const names = Object.keys(m.files).map((n) => `${m.path}@${m.version}/${n}`);
    const hash = goDirHash(
      names.map((name, i) => ({ name, data: Buffer.from(Object.values(m.files)[i] ?? '') })),
    );
    sums.push(`${m.path} ${m.version} ${hash}`, `${m.path} ${m.version}/go.mod ${goModHash(goMod)}`);
    routes.set(`${base}.info`, {
      type: 'application/json',
      body: Buffer.from(JSON.stringify({ Version: m.version, Time: '2024-01-02T03:04:05Z' })),
    });
    routes.set(`${base}.mod`, { type: 'text/plain', body: goMod });
    routes.set(`${base}.zip`, { type: 'application/zip', body: served });
    routes.set(`/${escapeModulePath(m.path)}/@v/list`, {
      type: 'text/plain',
      body: Buffer.from(`${m.version}\n`),
    });
  }
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push(path);
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': route.type, 'content-length': route.body.length }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    goSum: `${sums.sort().join('\n')}\n`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
