import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTree } from '../../src/analysis/analyzeTree.ts';
import { SourceTree } from '../../src/analysis/SourceTree.ts';
import { offeredConfigureSwitches } from '../../src/heuristics/configureSwitches.ts';
import type { HeuristicContext } from '../../src/heuristics/RecoveryHeuristic.ts';
import { findConfigHelpers } from '../../src/heuristics/refreshConfigGuess.ts';
import { finishNode } from '../../src/port/graph/nodes/finish.ts';
import { makeError } from '../../src/port/graph/nodes/recordError.ts';
import { verifyNode } from '../../src/port/graph/nodes/verify.ts';
import { analystPrompt } from '../../src/port/llm/analystPrompt.ts';
import { existingSourceDir } from '../../src/port/llm/existingSourceDir.ts';
import { referencedExcerpts, referencedFiles } from '../../src/port/llm/failureContext.ts';
import { describeFailure } from '../../src/port/llm/fixerPrompt.ts';
import { scoutPrompt } from '../../src/port/llm/scoutPrompt.ts';
import { copyArtifactsOut } from '../../src/port/outputs/copyArtifactsOut.ts';
import { writePortOutputs } from '../../src/port/outputs/writePortOutputs.ts';
import type { ArtifactRecord, BuildPlan, PortState } from '../../src/port/state/PortState.ts';
import { findBuildOutputs } from '../../src/port/steps/findBuildOutputs.ts';
import { normalizeAutotoolsTimestamps } from '../../src/port/steps/normalizeTimestamps.ts';
import { indexShippedObjects } from '../../src/port/steps/shippedObjects.ts';
import { FakeSandbox, fakePortServices, runPortNode } from '../../src/port/testing/fakePortServices.ts';
import { portState } from '../../src/port/testing/portStateFixture.ts';
import { compareBuildTrees } from '../../src/sandbox/proof/compareBuildTrees.ts';
import { decideVerdict } from '../../src/verify/decideVerdict.ts';
import { inspectFileIn } from '../../src/verify/inspectFile.ts';
import { verifyPaths } from '../../src/verify/verifyPaths.ts';
import { runCli } from '../helpers/rvportCli.ts';
import { CANARY, type HostileTree, hostileTree } from './hostileTree.ts';

const LEAK = new RegExp(CANARY, 'i');
let h: HostileTree;
beforeAll(() => {
  h = hostileTree();
});
afterAll(() => rmSync(h.base, { recursive: true, force: true }));

function stateOf(root: string): PortState {
  const { findings, ...scripted } = analyzeTree(root, { name: 'hostile', contents: null });
  return portState({ source: { spec: root, name: 'hostile', dir: root }, scripted, findings });
}

function artifact(path: string, role: ArtifactRecord['role']): ArtifactRecord {
  return {
    path,
    role,
    machine: 'riscv64',
    bits: 64,
    endian: 'little',
    type: 'executable',
    abi: null,
    interpreter: null,
    linkage: null,
    rank: 0,
  };
}

/** Every regular file below `dir`, found without following links. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('host-side reads of a hostile source tree stay inside it', () => {
  it('the scripted analysis reads no linked host file and lists the refused links', () => {
    const tree = SourceTree.fromDisk(h.tree);
    expect(tree.files).toContain('README');
    expect(tree.files).not.toContain('configure.ac');
    expect(tree.read('configure.ac')).toBeNull();
    expect(tree.read('m4/secret.h')).toBeNull();
    expect(tree.read('hostroot/etc/passwd')).toBeNull();
    expect(tree.read('chain/canary-secret')).toBeNull();
    expect(tree.read('README')).toBe('A small hostile package.\n');
    const analysis = analyzeTree(h.tree, { name: 'hostile', contents: null });
    expect(JSON.stringify(analysis)).not.toMatch(LEAK);
    expect(analysis.refusedLinks.map((l) => l.path).sort()).toEqual([
      'CMakeLists.txt',
      'INSTALL',
      'chain',
      'configure.ac',
      'hostroot',
      'm4',
      'src/x.c',
      'sub/up',
    ]);
    expect(analysis.refusedLinks.find((l) => l.path === 'INSTALL')?.reason).toMatch(
      /sub\/up -> \.\.\/\.\. leads outside/,
    );
  });

  it('the analyst and scout prompts carry a note, never the linked file', () => {
    const state = stateOf(h.tree);
    const analyst = analystPrompt(state)
      .messages.map((m) => m.content)
      .join('\n');
    const scout = scoutPrompt({ state, previousPlan: null, lastError: null, fewShot: '' })
      .messages.map((m) => m.content)
      .join('\n');
    for (const prompt of [analyst, scout]) {
      expect(prompt).not.toMatch(LEAK);
      expect(prompt).toContain('A small hostile package.');
      expect(prompt).toMatch(
        /=== configure\.ac ===\n\(not read: a symbolic link that leads outside the source tree\)/,
      );
    }
  });

  it('the fixer prompt shows no file a diagnostic names through a link', async () => {
    const output = [
      'src/x.c:1:5: error: expected declaration',
      'm4/secret.h:1:1: error: stray',
      'chain/canary-dir/secret.h:1:1: error: bad',
      `hostroot${h.canaryDir}/secret.h:1:1: error: nope`,
      'src/main.c:1:1: error: real one',
    ].join('\n');
    const references = referencedFiles(output, '.');
    expect(references.map((r) => r.path)).toContain('src/x.c');
    const files = await referencedExcerpts(h.tree, references);
    expect(files.map((f) => f.path)).toEqual([
      'src/main.c',
      'src/x.c',
      'm4/secret.h',
      'chain/canary-dir/secret.h',
      `hostroot${h.canaryDir}/secret.h`,
    ]);
    const state = stateOf(h.tree);
    const error = makeError({ node: 'build', output, phase: 'build', command: 'make', exitCode: 2 });
    const prompt = describeFailure({ state: { ...state, plan: state.plan }, error, output, files });
    expect(prompt).not.toMatch(LEAK);
    expect(prompt).not.toMatch(/root:x:0:0/);
    expect(prompt).toContain('int main(void)');
    expect(prompt).toContain('(not read: a symbolic link that leads outside the source tree)');
  });

  it('a plan folder the LLM names through a link is not a folder of the tree', () => {
    expect(existingSourceDir(h.tree, 'src')).toBe('src');
    expect(existingSourceDir(h.tree, 'm4')).toBeNull();
    expect(existingSourceDir(h.tree, 'hostroot')).toBeNull();
    expect(existingSourceDir(h.tree, 'chain')).toBeNull();
  });

  it('timestamps are set inside the tree only, never on a linked host file', async () => {
    const real = join(h.tree, 'real');
    mkdirSync(real, { recursive: true });
    writeFileSync(join(real, 'configure.ac'), 'AC_INIT([real])\n');
    symlinkSync('../../canary-secret', join(real, 'aclocal.m4'));
    symlinkSync('../../canary-dir', join(real, 'm4'));
    const old = new Date('2001-01-01T00:00:00Z');
    for (const f of [h.canary, join(h.canaryDir, 'configure.ac')]) utimesSync(f, old, old);
    expect(await normalizeAutotoolsTimestamps(h.tree, 'real')).toBe(true);
    expect(await normalizeAutotoolsTimestamps(h.tree, 'm4')).toBe(false);
    expect(statSync(h.canary).mtimeMs).toBe(old.getTime());
    expect(statSync(join(h.canaryDir, 'configure.ac')).mtimeMs).toBe(old.getTime());
    expect(statSync(join(real, 'configure.ac')).mtimeMs).toBeGreaterThan(old.getTime());
    rmSync(real, { recursive: true });
  });
});

describe('host-side reads of a hostile build tree stay inside it', () => {
  it('output discovery does not walk dest -> / and lists no linked object', async () => {
    const refused: string[] = [];
    expect(await findBuildOutputs(join(h.workspace, 'dest'), null, (r) => refused.push(r))).toEqual({
      built: [],
      shipped: [],
    });
    expect(refused.join('\n')).toMatch(/dest is a symbolic link; it is not followed/);
    const found = await findBuildOutputs(join(h.workspace, 'src'), indexShippedObjects(h.tree));
    expect(found.built).toEqual(['bin/hello', 'libhello.so.1']);
  });

  it('the verify step reads ELF headers inside the tree and verifies only what the build made', async () => {
    const root = join(h.workspace, 'src');
    const facts = await Promise.all(
      (await findBuildOutputs(root, null)).built.map((rel) => inspectFileIn(root, rel, rel)),
    );
    expect(decideVerdict(facts).verdict).toBe('verified');
    expect(await inspectFileIn(root, 'bin/stolen', 'bin/stolen')).toMatchObject({
      kind: 'unreadable',
      error: expect.stringMatching(/leads outside the tree/),
    });
    const report = await verifyPaths([h.workspace]);
    expect(report.verdict).toBe('verified');
    expect(report.files.map((f) => f.path).sort()).toEqual(
      [join(h.workspace, 'src', 'bin', 'hello'), join(h.workspace, 'src', 'libhello.so.1')].sort(),
    );
    expect(report.links).toBe(5); // dest, libhello.so, bin/stolen, hostdir, configure
  });

  it('artifacts reach OUT/ as plain regular files: no setuid, no link, no host file, no FIFO', async () => {
    const out = join(h.base, 'out', 'hostile');
    mkdirSync(out, { recursive: true });
    const notes: string[] = [];
    const artifacts = [
      artifact('bin/hello', 'program'),
      artifact('libhello.so', 'shared-library'),
      artifact('bin/stolen', 'program'),
      artifact('hostdir/host-program', 'program'),
      artifact('configure', 'program'),
      artifact('bin/pipe', 'program'),
      artifact('DESTDIR/etc/passwd', 'program'),
      artifact('../../canary-secret', 'program'),
    ];
    const copied = await copyArtifactsOut(h.workspace, join(out, 'artifacts'), artifacts, (n) =>
      notes.push(n),
    );
    expect(copied.copied.map((c) => c.path)).toEqual(['bin/hello', 'libhello.so']);
    const hello = lstatSync(join(out, 'artifacts', 'bin', 'hello'));
    expect(lstatSync(join(h.workspace, 'src', 'bin', 'hello')).mode & 0o7000).toBe(0o6000);
    expect(hello.isFile()).toBe(true);
    expect(hello.mode & 0o7777).toBe(0o755);
    expect(lstatSync(join(out, 'artifacts', 'libhello.so')).isFile()).toBe(true);
    expect(notes).toHaveLength(6);
    expect(notes.find((n) => n.includes('bin/pipe'))).toMatch(/a FIFO, not a regular file/);
    expect(notes.find((n) => n.includes('DESTDIR/etc/passwd'))).toMatch(
      /is a symbolic link; it is not followed/,
    );
    for (const file of filesBelow(out)) expect(readFileSync(file, 'latin1')).not.toMatch(LEAK);

    const state = portState({
      source: { spec: h.tree, name: 'hostile', dir: h.tree },
      artifacts,
      buildStatus: 'SUCCESS',
    });
    const written = await writePortOutputs(state, out, { package: true });
    expect(written.packageFile).toBeDefined();
    const zip = unzipSync(readFileSync(written.packageFile as string));
    expect(
      Object.keys(zip)
        .filter((k) => k.startsWith('artifacts/'))
        .sort(),
    ).toEqual(['artifacts/bin/hello', 'artifacts/libhello.so']);
    for (const content of Object.values(zip))
      expect(Buffer.from(content).toString('latin1')).not.toMatch(LEAK);
  });

  it('heuristics read the build tree, not the host files it links to', () => {
    writeFileSync(join(h.canaryDir, 'config.guess'), '#!/bin/sh\n');
    const ctx = { sandbox: { workspace: h.workspace }, plan: { dir: '.' } } as unknown as HeuristicContext;
    expect(offeredConfigureSwitches(ctx, [`--disable-${CANARY}`])).toEqual([]);
    expect(findConfigHelpers(join(h.workspace, 'src'))).toEqual([]);
  });

  it('comparing two build trees reports links as links and reads no linked file', async () => {
    const result = await compareBuildTrees(join(h.workspace, 'src'), join(h.workspace, 'src'));
    expect(result.identical).toBe(true);
    const other = join(h.base, 'other');
    mkdirSync(other);
    symlinkSync(h.canary, join(other, 'configure'));
    writeFileSync(join(h.base, 'plain-configure'), 'x');
    const diff = await compareBuildTrees(join(h.workspace, 'src'), other);
    expect(JSON.stringify(diff)).not.toMatch(LEAK);
  });
});

describe("the port's verify and finish nodes on a hostile workspace", () => {
  it('verify reports only what the build made, and finish copies only those, as plain files', async () => {
    const sandbox = new FakeSandbox();
    const hostile = hostileTree(sandbox.workspace);
    try {
      const notes: string[] = [];
      const svc = fakePortServices(sandbox, {
        progress: (event) => {
          if (event.type === 'note') notes.push(event.message);
        },
      });
      const plan: BuildPlan = {
        buildSystem: 'make',
        dir: '.',
        phases: [{ name: 'build', commands: ['make'] }],
        packages: [],
        expectedArtifacts: [],
        origin: 'default',
      };
      const start = portState({
        source: { spec: hostile.tree, name: 'hostile', dir: hostile.tree },
        plan,
        buildStatus: 'BUILDING',
      });
      const verified = await runPortNode(verifyNode, start, svc);
      expect(verified.verification?.verdict).toBe('verified');
      expect(verified.artifacts?.map((a) => a.path).sort()).toEqual(['bin/hello', 'libhello.so.1']);
      expect(notes.join('\n')).toMatch(/not verified: .*dest is a symbolic link; it is not followed/);

      await runPortNode(finishNode, { ...start, ...verified }, svc);
      const copied = join(svc.outDir, 'artifacts');
      expect(
        filesBelow(copied)
          .map((f) => f.slice(copied.length + 1))
          .sort(),
      ).toEqual(['bin/hello', 'libhello.so.1']);
      expect(lstatSync(join(copied, 'bin', 'hello')).mode & 0o7777).toBe(0o755);
      for (const file of filesBelow(svc.outDir)) expect(readFileSync(file, 'latin1')).not.toMatch(LEAK);
    } finally {
      rmSync(hostile.base, { recursive: true, force: true });
      rmSync(sandbox.workspace, { recursive: true, force: true });
    }
  });
});

describe('the CLI on a hostile tree', () => {
  const env = () => ({ RVPORT_HOME: join(h.base, 'home'), NO_COLOR: '1' });

  it('rvport analyze reads no linked host file', async () => {
    const json = await runCli(['analyze', h.tree, '--json', '--no-contents'], { cwd: h.base, env: env() });
    expect(json.stderr).not.toMatch(LEAK);
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(LEAK);
    const result = JSON.parse(json.stdout) as { refusedLinks: { path: string }[] };
    expect(result.refusedLinks.map((l) => l.path)).toContain('configure.ac');
    const text = await runCli(['analyze', h.tree, '--no-contents'], { cwd: h.base, env: env() });
    expect(text.code).toBe(0);
    expect(`${text.stdout}${text.stderr}`).not.toMatch(LEAK);
    expect(text.stdout).toContain('Symbolic links not followed (they lead out of the tree): 8');
    // a link the user names on the command line is theirs, and is followed (once)
    symlinkSync(h.tree, join(h.base, 'tree-link'));
    const linked = await runCli(['analyze', join(h.base, 'tree-link'), '--json', '--no-contents'], {
      cwd: h.base,
      env: env(),
    });
    expect(linked.code).toBe(0);
    expect(linked.stdout).not.toMatch(LEAK);
    expect((JSON.parse(linked.stdout) as { files: number }).files).toBe(4);
  });

  it('rvport verify walks a build tree without following its links', async () => {
    const run = await runCli(['verify', h.workspace], { cwd: h.base, env: env() });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('VERIFIED');
    expect(run.stdout).toContain('(5 symbolic links not followed)');
    expect(run.stdout).not.toContain('x86_64');
    expect(run.stdout).not.toContain('host-program');
    const json = await runCli(['verify', '--json', join(h.workspace, 'src')], { cwd: h.base, env: env() });
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(LEAK);
    expect((JSON.parse(json.stdout) as { links: number }).links).toBe(4);
  });
});
