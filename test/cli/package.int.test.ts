import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packProject, PROJECT_ROOT as root, run } from '../helpers/packProject.ts';

// The package as a user gets it: `npm pack` of the project (which builds dist/), installed into a
// fresh folder, used from plain Node.js with no tsx in sight. The project is packed from a copy
// so the checkout's own dist/ is left alone.
const typescript = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
let work: string;
let consumer: string;
let packed: { tarball: string; files: string[] };

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'rvport-package-'));
  packed = packProject(work);

  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  const install = run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', packed.tarball],
    consumer,
  );
  expect(install.code, install.stderr).toBe(0);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed rvport package (npm pack, npm install, plain Node.js)', () => {
  it('ships the build, the binary and the README, and none of the sources, tests or fixtures', () => {
    const files = packed.files;
    for (const needed of [
      'package.json',
      'README.md',
      'bin/rvport.js',
      'dist/.built',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/main.js',
      'dist/cli/workflowLoaderHooks.js',
      'dist/sandbox/proof/userlandProofs.json',
    ])
      expect(files).toContain(needed);
    expect(
      files.filter(
        (f) =>
          /^(src|test|bench|examples)\/|\.test\.|\/testing\/|\/fixtures\/|\.ts$/.test(f) &&
          !f.endsWith('.d.ts'),
      ),
    ).toEqual([]);
  });

  it("runs a workflow from a plain Node.js script that imports 'rvport'", () => {
    writeFileSync(
      join(consumer, 'use.mjs'),
      `import { defineWorkflow, END, FunctionNode, runWorkflow } from 'rvport';
const wf = defineWorkflow({
  id: 'lib',
  initialContext: { n: 0 },
  nodes: { add: FunctionNode({ run: (s) => ({ context: { n: s.context.n + 2 } }), then: END }) },
});
const result = await runWorkflow(wf, { stateDir: new URL('./state', import.meta.url).pathname });
console.log(JSON.stringify({ outcome: result.outcome, n: result.state.context.n, tsx: process.execArgv }));
`,
    );
    const result = run(process.execPath, ['use.mjs'], consumer);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ outcome: 'completed', n: 2, tsx: [] });
  });

  it('gives TypeScript users the declarations', () => {
    writeFileSync(
      join(consumer, 'typed.ts'),
      `import { defineWorkflow, END, FunctionNode, type Workflow } from 'rvport';
export const wf: Workflow<{ n: number }> = defineWorkflow({
  id: 'typed',
  initialContext: { n: 0 },
  nodes: { only: FunctionNode({ run: () => ({}), then: END }) },
});
// @ts-expect-error a workflow is not a number: the types are real, not any
export const wrong: number = wf;
`,
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['typed.ts'],
      }),
    );
    const result = run(process.execPath, [typescript, '-p', '.'], consumer);
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.code).toBe(0);
  });

  it('runs the installed binary from its build: --version and a .ts workflow file', () => {
    const bin = join(consumer, 'node_modules', 'rvport', 'bin', 'rvport.js');
    const version = run(process.execPath, [bin, '--version'], consumer);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    writeFileSync(
      join(consumer, 'mine.workflow.ts'),
      `import { defineWorkflow, END, FunctionNode } from 'rvport';
const step = (n: number): number => n + 1;
export default defineWorkflow({
  id: 'mine',
  initialContext: { n: 0 },
  nodes: { one: FunctionNode({ run: (s) => ({ context: { n: step(s.context.n) } }), then: END }) },
});
`,
    );
    const result = run(process.execPath, [bin, 'workflow', 'run', 'mine.workflow.ts', '--json'], consumer);
    expect(result.stderr).toMatch(/workflow 'mine' completed in 1 steps/);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed', context: { n: 1 } });
  });
});
