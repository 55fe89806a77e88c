import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metadataDir } from '../../../sources/acquireSource.ts';
import { renderEscalation } from '../../outputs/renderEscalation.ts';
import { FakeSandbox, fakePortServices, runPortNode } from '../../testing/fakePortServices.ts';
import { portState } from '../../testing/portStateFixture.ts';
import { initNode } from './init.ts';

function sourceDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-init-src-'));
  writeFileSync(join(dir, 'Makefile'), 'all: demo\n');
  writeFileSync(join(dir, 'demo.c'), 'int main(void) { return 0; }\n');
  return dir;
}

describe('the init node', () => {
  it('records the git tree of the acquired source and lets the sandbox mode be chosen for it', async () => {
    const dir = sourceDir();
    const trees: string[] = [];
    const services = fakePortServices(new FakeSandbox(), {
      chooseMode: (tree) => {
        trees.push(tree);
        return { mode: 'accelerated', reason: 'the proof was made with another source' };
      },
    });
    const update = await runPortNode(initNode, portState({ source: { spec: dir, name: 'demo' } }), services);
    const acquired = update.source?.dir ?? '';
    // an imported plain tree is recorded in rvport's own git dir, outside the tree
    const gitDir = join(metadataDir(dirname(acquired), basename(acquired)), 'git');
    const tree = execFileSync('git', [`--git-dir=${gitDir}`, 'rev-parse', 'HEAD^{tree}'], {
      encoding: 'utf8',
    }).trim();
    expect(update.source?.tree).toBe(tree);
    expect(trees).toEqual([tree]);
    expect(update.options).toMatchObject({
      mode: 'accelerated',
      modeReason: 'the proof was made with another source',
    });
  });

  it('the same files acquired from another folder have the same tree', async () => {
    const services = fakePortServices(new FakeSandbox());
    const a = await runPortNode(
      initNode,
      portState({ source: { spec: sourceDir(), name: 'demo' } }),
      services,
    );
    const b = await runPortNode(
      initNode,
      portState({ source: { spec: sourceDir(), name: 'demo' } }),
      services,
    );
    expect(a.source?.tree).toMatch(/^[0-9a-f]{40}$/);
    expect(b.source?.tree).toBe(a.source?.tree);
    expect(a.options).toBeUndefined(); // without chooseMode the options stand
  });

  it('records a source the server answers 404 for as SOURCE_UNAVAILABLE, with what to do', async () => {
    const server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dl/gone-1.0.tar.gz`;
      const state = portState({ source: { spec: url, name: 'gone' } });
      const services = fakePortServices(new FakeSandbox(), {
        // the server is on loopback: the user's own --allow-private-addresses
        sourceFetch: { source: url, rules: { origin: 'command-line', allowPrivateAddresses: true } },
      });
      const update = await runPortNode(initNode, state, services);
      expect(update.buildStatus).toBe('FAILED');
      expect(update.errors?.[0]).toMatchObject({ category: 'SOURCE_UNAVAILABLE', severity: 'critical' });
      expect(update.errors?.[0]?.message).toMatch(/HTTP 404/);
      const escalation = renderEscalation({ ...state, ...update });
      expect(escalation).toMatch(
        /## Recommendation\n\nThe source `http:\/\/127\.0\.0\.1:\d+\/dl\/gone-1\.0\.tar\.gz` is not where it was looked for/,
      );
    } finally {
      server.close();
    }
  });
});
