import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gatherMirrorFacts } from '../../src/doctor/mirrorCheck.ts';

describe('gatherMirrorFacts (real HTTP on loopback)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/debian`;
  }

  it('asks for dists/<suite>/Release and reports the status', async () => {
    const asked: string[] = [];
    const mirror = await serve((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      res.writeHead(req.url === '/debian/dists/trixie/Release' ? 200 : 404).end();
    });
    expect((await gatherMirrorFacts({}, { mirror, suite: 'trixie' })).answer).toEqual({ status: 200 });
    expect((await gatherMirrorFacts({}, { mirror, suite: 'nosuch' })).answer).toEqual({ status: 404 });
    expect(asked).toEqual(['HEAD /debian/dists/trixie/Release', 'HEAD /debian/dists/nosuch/Release']);
  });

  it('falls back to GET where HEAD is refused', async () => {
    const mirror = await serve((req, res) =>
      res.writeHead(req.method === 'HEAD' ? 405 : 200).end('Origin: Debian\n'),
    );
    expect((await gatherMirrorFacts({}, { mirror, suite: 'trixie' })).answer).toEqual({ status: 200 });
  });

  it('gives up after the time-out on a server that never answers', async () => {
    const mirror = await serve(() => {});
    const facts = await gatherMirrorFacts({}, { mirror, suite: 'trixie', timeoutMs: 300 });
    expect(facts.answer).toEqual({ error: 'no answer within 0.3 s' });
  });

  it('takes RVPORT_DEBIAN_MIRROR from the environment', async () => {
    const mirror = await serve((_req, res) => res.writeHead(200).end());
    expect((await gatherMirrorFacts({ RVPORT_DEBIAN_MIRROR: mirror })).mirror).toBe(mirror);
  });
});
