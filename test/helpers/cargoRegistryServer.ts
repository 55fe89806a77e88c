import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { cratePrefix } from '../../src/sources/deps/crateDownloadUrl.ts';
import { type CraftedEntry, craftTar } from '../security/craftTar.ts';

/** A crate version the registry serves, as the files of its package (Cargo.toml among them). */
export interface RegistryCrate {
  name: string;
  version: string;
  files: Record<string, string>;
  /** Extra archive members as a hostile publisher could write them (links, `..` paths). */
  extra?: CraftedEntry[];
  /** Serve a .crate other than the one the checksum is given for (a tampered download). */
  tamper?: boolean;
}

export interface CargoRegistry {
  /** The sparse index (where config.json is): what `--cargo-registry` takes. */
  indexUrl: string;
  /** sha256 of each crate as its honest .crate hashes, by `name version`. */
  checksums: Map<string, string>;
  requests: string[];
  close(): Promise<void>;
}

/** A real .crate: a gzip'd tarball of the files under `name-version/`, as cargo package writes. */
export function crateFile(c: RegistryCrate, files = c.files): Buffer {
  const top = `${c.name}-${c.version}`;
  const entries: CraftedEntry[] = [
    { name: `${top}/`, type: '5' },
    ...Object.entries(files).map(([name, content]) => ({ name: `${top}/${name}`, type: '0', content })),
    ...(c.extra ?? []),
  ];
  return gzipSync(craftTar(entries));
}

/**
 * A cargo registry on 127.0.0.1: a sparse index (`/index/config.json`, `/index/<prefix>/<name>`)
 * and crate downloads at `{dl}/{name}/{version}/download`, serving real .crate files.
 */
export async function startCargoRegistry(crates: readonly RegistryCrate[]): Promise<CargoRegistry> {
  const routes = new Map<string, Buffer>();
  const checksums = new Map<string, string>();
  const index = new Map<string, string[]>();
  for (const c of crates) {
    const honest = crateFile(c);
    const sum = createHash('sha256').update(honest).digest('hex');
    checksums.set(`${c.name} ${c.version}`, sum);
    const served = c.tamper ? crateFile(c, { ...c.files, 'src/evil.rs': 'pub fn evil() {}\n' }) : honest;
    routes.set(`/api/v1/crates/${c.name}/${c.version}/download`, served);
    const line = JSON.stringify({
      name: c.name,
      vers: c.version,
      deps: [],
      cksum: sum,
      features: {},
      yanked: false,
    });
    index.set(`/index/${cratePrefix(c.name)}/${c.name}`, [
      ...(index.get(`/index/${cratePrefix(c.name)}/${c.name}`) ?? []),
      line,
    ]);
  }
  for (const [path, lines] of index) routes.set(path, Buffer.from(`${lines.join('\n')}\n`));
  const requests: string[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push(path);
    const body =
      path === '/index/config.json'
        ? Buffer.from(JSON.stringify({ dl: `${base}/api/v1/crates` }))
        : routes.get(path);
    if (!body) {
      res.writeHead(404).end('not found\n');
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    indexUrl: `${base}/index/`,
    checksums,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
