import { closeSync, createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { isConfinedPathError, openConfined } from '../fs/index.ts';
import { OutputFolder } from './OutputFolder.ts';
import { LogPager } from './pageLog.ts';
import { type IsAlive, isProcessAlive, readBatchState, toBatchView } from './readBatch.ts';
import { readOverview, readPorts } from './readOverview.ts';
import { listPortFiles, readPortDetail } from './readPortDetail.ts';
import { isFolderName, parseBatchKey, parseFilePath, parsePage, parsePortKey } from './requestPath.ts';
import { isServeError, ServeError } from './ServeError.ts';
import type { ErrorView } from './ServeViews.ts';
import { allowedHosts, SECURITY_HEADERS } from './securityHeaders.ts';
import type { WebAssets } from './webAssets.ts';

export interface ServeAppOptions {
  /** The output folder (absolute). */
  out: string;
  assets: WebAssets;
  /** The address the server is bound to and its port: the Host header is checked against them. */
  host: string;
  /** Known once the server listens (asking for port 0 gets one from the system). */
  port: () => number;
  alive?: IsAlive;
  /** Where an unexpected error is told (never to the browser). */
  log?: (message: string) => void;
}

/**
 * The dashboard's HTTP interface: JSON views of the output folder under /api, downloads of a
 * port's files as attachments, and the built front end. Read-only: GET and HEAD alone.
 */
export function createServeApp(options: ServeAppOptions): Hono {
  const folder = new OutputFolder(options.out);
  const pager = new LogPager(options.out);
  const alive = options.alive ?? isProcessAlive;
  const app = new Hono();

  app.use('*', async (c, next) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      c.header('Allow', 'GET, HEAD');
      return fail(
        c,
        new ServeError('method-not-allowed', `${c.req.method} is not allowed: the dashboard is read-only`),
      );
    }
    const host = (c.req.header('host') ?? '').toLowerCase();
    const hosts = allowedHosts(options.host, options.port());
    if (hosts && !hosts.has(host))
      return fail(
        c,
        new ServeError('bad-host', `Host ${JSON.stringify(host.slice(0, 100))} is not this server's`),
      );
    await next();
    if (c.req.path.startsWith('/api/')) c.header('Cache-Control', 'no-store');
  });

  app.get('/api/overview', (c) => c.json(readOverview(folder, alive, options.out)));

  app.get('/api/batch', (c) => {
    const key = parseBatchKey(c.req.query('key'));
    const problems: string[] = [];
    const batch = folder.layout().batches.find((b) => b.key === key);
    if (!batch) throw new ServeError('not-found', `no batch ${JSON.stringify(key)} in the output folder`);
    return c.json({ ...toBatchView(key, batch, readBatchState(folder, batch, alive, problems)), problems });
  });

  app.get('/api/port', (c) => c.json(readPortDetail(folder, alive, parsePortKey(c.req.query('key')))));

  app.get('/api/port/log', (c) => {
    const key = parsePortKey(c.req.query('key'));
    const file = c.req.query('file') ?? 'build.log';
    if (!isFolderName(file) || !file.endsWith('.log'))
      throw new ServeError('bad-request', `${JSON.stringify(file.slice(0, 100))} is not a log of the port`);
    const page = parsePage(c.req.query('page'));
    const found = readPorts(folder, alive).ports.find((p) => p.port.key === key);
    if (!found) throw new ServeError('not-found', `no port ${JSON.stringify(key)} in the output folder`);
    if (!found.port.entries.some((e) => e.name === file && e.type === 'file'))
      throw new ServeError('not-found', `port ${key} has no ${file}`);
    const last = file === 'build.log' ? found.state?.errors.at(-1) : undefined;
    return c.json(
      pager.page(`${key}/${file}`, page, {
        command: last?.command ?? null,
        errorLine: last?.errorLine ?? null,
      }),
    );
  });

  app.get('/api/port/file', (c) => {
    const key = parsePortKey(c.req.query('key'));
    const path = parseFilePath(c.req.query('path'));
    const found = readPorts(folder, alive).ports.find((p) => p.port.key === key);
    if (!found) throw new ServeError('not-found', `no port ${JSON.stringify(key)} in the output folder`);
    const { files, artifacts } = listPortFiles(folder, key, found.state, []);
    // only what the listing found as a regular file: never a link, never a folder
    if (![...files, ...artifacts].some((f) => f.path === path))
      throw new ServeError('not-found', `port ${key} has no file ${JSON.stringify(path.slice(0, 200))}`);
    return download(c, options.out, `${key}/${path}`);
  });

  app.all('/api/*', () => {
    throw new ServeError('not-found', 'no such endpoint');
  });

  app.get('*', (c) => {
    const path = c.req.path === '/' ? 'index.html' : c.req.path.slice(1);
    const asset = options.assets.files.get(path);
    if (!asset) return fail(c, new ServeError('not-found', 'no such page'));
    c.header('Content-Type', asset.type);
    if (path.startsWith('assets/')) c.header('Cache-Control', 'public, max-age=31536000, immutable');
    return c.body(new Uint8Array(asset.body));
  });

  app.onError((error, c) => {
    if (isServeError(error)) return fail(c, error);
    if (isConfinedPathError(error)) {
      const status =
        error.code === 'not-found' ? 'not-found' : error.code === 'too-large' ? 'too-large' : 'bad-request';
      return fail(c, new ServeError(status, error.message));
    }
    options.log?.(`rvport serve: ${c.req.method} ${c.req.path}: ${(error as Error)?.stack ?? String(error)}`);
    return c.json(
      {
        error: 'internal',
        message: 'the server could not answer this request (see its log)',
      } satisfies ErrorView,
      500,
    );
  });

  return app;
}

function fail(c: Context, error: ServeError): Response {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
  return c.json({ error: error.code, message: error.message } satisfies ErrorView, error.status as 400);
}

/** A file as an attachment: streamed from a descriptor opened confined, never rendered. */
function download(c: Context, root: string, rel: string): Response {
  const { fd, stats } = openConfined(root, rel);
  const name = rel.split('/').at(-1) as string;
  const ascii = name.replace(/[^A-Za-z0-9._+-]/g, '_');
  c.header('Content-Type', 'application/octet-stream');
  c.header(
    'Content-Disposition',
    `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  );
  c.header('Content-Length', String(stats.size));
  if (c.req.method === 'HEAD') {
    closeSync(fd);
    return c.body(null);
  }
  // a file still growing is sent up to the size it had when opened
  const stream = createReadStream('', { fd, start: 0, end: Math.max(0, stats.size - 1), autoClose: true });
  if (stats.size === 0) {
    stream.destroy();
    return c.body(new Uint8Array(0));
  }
  return c.body(Readable.toWeb(stream) as ReadableStream);
}
