import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchView, LogPageView, OverviewView, PortDetailView } from './ServeViews.ts';
import { type RunningDashboard, startDashboard } from './startDashboard.ts';
import { buildWebAssets } from './testing/buildWebAssets.ts';
import {
  type EscalatedPort,
  portResult,
  validEntry,
  writeBatchState,
  writeEscalatedPort,
  writeVerifiedPort,
} from './testing/outputFixtures.ts';

let out: string;
let webDir: string;
let dashboard: RunningDashboard;
let escalated: EscalatedPort;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'rvport-serve-int-'));
  const cjson = await writeVerifiedPort(out, 'cjson');
  escalated = await writeEscalatedPort(out, 'hesiod', { noiseLines: 1200 });
  symlinkSync('/etc/passwd', join(cjson, 'artifacts', 'passwd'));
  symlinkSync('/etc/passwd', join(cjson, 'evil.log'));
  const entries = [validEntry('cjson', 1), validEntry('hesiod', 2)];
  await writeBatchState(out, entries, [
    portResult(entries[0] as (typeof entries)[0], { buildSystem: 'cmake' }),
    portResult(entries[1] as (typeof entries)[0], { verdict: 'escalated', errorCategory: 'COMPILATION' }),
  ]);
  const assets = await buildWebAssets();
  webDir = assets.cleanupDir;
  dashboard = await startDashboard({ out, assets, port: 0 });
}, 120_000);

afterAll(async () => {
  await dashboard?.close();
  rmSync(out, { recursive: true, force: true });
  if (webDir) rmSync(webDir, { recursive: true, force: true });
});

const get = (path: string, init?: RequestInit) => fetch(new URL(path, dashboard.url), init);

/** A request with a Host header of our choosing (fetch does not let one set it). */
function rawGet(path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, dashboard.url), { headers: { Host: host } }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('rvport serve over HTTP', () => {
  it('listens on 127.0.0.1 by default', () => {
    expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('serves the page with a policy that forbids inline script, and nosniff', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html).not.toMatch(/<script>(?!<\/script>)/); // every script is a file of the server
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await get(`/${script}`)).headers.get('content-type')).toMatch(/javascript/);
  });

  it('answers the overview with both ports and the batch', async () => {
    const view = (await (await get('/api/overview')).json()) as OverviewView;
    expect(view.ports.map((p) => [p.name, p.verdict])).toEqual([
      ['cjson', 'verified'],
      ['hesiod', 'escalated'],
    ]);
    expect(view.batches).toEqual([{ key: '.', running: false }]);
  });

  it("answers a port's page and pages its log to the marked error line", async () => {
    const detail = (await (await get('/api/port?key=hesiod')).json()) as PortDetailView;
    expect(detail.row.verdict).toBe('escalated');
    expect(detail.documents.map((d) => d.name)).toContain('escalation.md');
    const page = Math.ceil(escalated.errorLineNumber / 500);
    const log = (await (
      await get(`/api/port/log?key=hesiod&file=build.log&page=${page}`)
    ).json()) as LogPageView;
    expect(log.pages).toBe(3);
    expect(log.errorLine).toBe(escalated.errorLineNumber);
    expect(log.lines[escalated.errorLineNumber - log.firstLine]).toBe(escalated.errorLine);
  });

  it('answers 404 JSON for a page out of range, a missing port, a missing file; 400 for bad input', async () => {
    const cases: [string, number, RegExp][] = [
      ['/api/port/log?key=hesiod&page=99', 404, /out of range/],
      ['/api/port/log?key=hesiod&page=zero', 400, /whole number/],
      ['/api/port?key=nope', 404, /no port "nope"/],
      ['/api/port?key=../../etc', 400, /not a port key/],
      ['/api/port/file?key=cjson&path=../../etc/passwd', 400, /leads out/],
      ['/api/port/file?key=cjson&path=/etc/passwd', 400, /absolute/],
      ['/api/port/file?key=cjson&path=nothing.txt', 404, /no file/],
      ['/api/batch?key=nope', 404, /no batch/],
      ['/api/nothing', 404, /no such endpoint/],
    ];
    for (const [path, status, message] of cases) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, status]);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const body = (await res.json()) as { message: string };
      expect(body.message).toMatch(message);
      expect(body.message).not.toMatch(/ at .*\.ts:\d+/); // never a stack trace
    }
  });

  it('never serves a link to /etc/passwd, as a file or as a log', async () => {
    for (const path of [
      '/api/port/file?key=cjson&path=artifacts/passwd',
      '/api/port/log?key=cjson&file=evil.log',
    ]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toMatch(/root:x:0:0/);
    }
  });

  it('downloads an artifact as an attachment, never as a page', async () => {
    const res = await get('/api/port/file?key=cjson&path=artifacts/build/libcjson.so.1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="libcjson.so.1"/);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toMatch(/^\x7fELF riscv64 library of cjson$/);
  });

  it('is read-only: anything but GET and HEAD is refused', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await get('/api/overview', { method });
      expect(res.status).toBe(405);
    }
    const head = await get('/api/overview', { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('refuses a Host header of another name (DNS rebinding)', async () => {
    const port = new URL(dashboard.url).port;
    expect((await rawGet('/api/overview', `evil.example:${port}`)).status).toBe(421);
    expect((await rawGet('/api/overview', `localhost:${port}`)).status).toBe(200);
  });

  it("answers the batch's progress", async () => {
    const view = (await (await get('/api/batch?key=.')).json()) as BatchView;
    expect(view).toMatchObject({ entries: 2, finished: 2, verified: 1, failed: 1, running: false });
  });
});
