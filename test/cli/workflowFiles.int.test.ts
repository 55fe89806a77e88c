import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/rvportCli.ts';

// A user's workflow file lives in a folder of its own, next to a package.json of either type or
// none at all. Each of the four extensions must run there, and so must a helper file it imports.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const typed = (ext: string) => ext.endsWith('ts');

function writeWorkflow(dir: string, ext: string): string {
  const annotation = typed(ext) ? ': number' : '';
  writeFileSync(join(dir, `steps.${ext}`), `export const STEPS${annotation} = 3;\n`);
  const file = join(dir, `mine.workflow.${ext}`);
  writeFileSync(
    file,
    `import { CommandNode, defineWorkflow, END, FunctionNode } from 'rvport';
import { STEPS } from './steps.${ext}';

export default defineWorkflow({
  id: 'mine',
  initialContext: { n: 0 },
  nodes: {
    greet: CommandNode({ command: 'echo hello', then: 'count' }),
    count: FunctionNode({
      run: async (state${typed(ext) ? ': { context: { n: number } }' : ''}) => ({ context: { n: state.context.n + 1 } }),
      then: (state) => (state.context.n < STEPS ? 'count' : END),
      targets: ['count', END],
    }),
  },
});
`,
  );
  return file;
}

const packageJsons = {
  'no package.json': undefined,
  'a "type": "module" package.json': { name: 'mine', type: 'module' },
  'a "type": "commonjs" package.json': { name: 'mine', type: 'commonjs' },
  'a package.json without "type"': { name: 'mine' },
};

describe('rvport workflow run: a workflow file in a folder of its own', () => {
  for (const ext of ['ts', 'mts', 'js', 'mjs']) {
    for (const [beside, packageJson] of Object.entries(packageJsons)) {
      it(`runs a .${ext} file with ${beside} beside it`, async () => {
        const dir = mkdtempSync(join(tmpdir(), 'rvport-own-wf-'));
        dirs.push(dir);
        if (packageJson) writeFileSync(join(dir, 'package.json'), JSON.stringify(packageJson));
        writeWorkflow(dir, ext);
        const result = await runCli(['workflow', 'run', `mine.workflow.${ext}`, '--json'], { cwd: dir });
        expect(result.stderr).not.toMatch(/cycle|Cannot|unexpected/);
        expect(result.code).toBe(0);
        expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed', context: { n: 3 } });
        expect(result.stderr).toMatch(/workflow 'mine' completed in 4 steps/);
      });
    }
  }

  it('refuses a file of another extension with a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-own-wf-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'mine.workflow.cjs'), 'module.exports = {};\n');
    const result = await runCli(['workflow', 'run', 'mine.workflow.cjs'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/workflow file must be \.ts, \.mts, \.js or \.mjs/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
