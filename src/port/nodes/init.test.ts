import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metadataDir } from '../../sources/acquireSource.ts';
import { FakeSandbox, fakePortServices, runPortNode } from '../testing/fakePortServices.ts';
import { portState } from '../testing/portStateFixture.ts';
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
});
