import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEBIAN_SUITE } from '../../src/debian/debianMirror.ts';
import { RecipeCache } from '../../src/recipes/RecipeCache.ts';
import { imageKeys } from '../../src/sandbox/findImages.ts';
import { RVPORT_BIN } from '../helpers/rvportCli.ts';

// Start-up time is mostly module loading: what a command does not use, it must not import. The
// real binary runs with a loader hook that writes down every module it loads.
let dir: string;
let trace: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-startup-'));
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.RVPORT_TRACE_FILE, url + '\\n');
  return next(url, context);
}
`,
  );
  writeFileSync(
    join(dir, 'trace.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function loadedBy(args: string[], env: NodeJS.ProcessEnv = {}) {
  trace = join(dir, `trace-${Date.now()}.txt`);
  writeFileSync(trace, '');
  const child = spawn(process.execPath, ['--import', join(dir, 'trace.mjs'), RVPORT_BIN, ...args], {
    cwd: dir,
    env: { ...process.env, ...env, RVPORT_TRACE_FILE: trace },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr, modules: readFileSync(trace, 'utf8').split('\n').filter(Boolean) };
}

const heavy = /\/node_modules\/(@anthropic-ai|openai|bullmq|ioredis|zod)\//;

describe('rvport start-up (real processes)', () => {
  it('--version loads no command and none of the SDKs, queue client or schemas', async () => {
    const { code, stdout, modules } = await loadedBy(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(modules.some((m) => /\/cli\/main\.(js|ts)$/.test(m))).toBe(true); // the trace works
    expect(modules.filter((m) => /\/cli\/commands\//.test(m) || heavy.test(m))).toEqual([]);
  });

  it('a port answered from the recipe cache loads neither the LLM SDKs nor the queue client', async () => {
    const home = join(dir, 'home');
    await new RecipeCache(join(home, 'recipes')).put({
      formatVersion: 1,
      package: 'sl',
      imageId: imageKeys(DEFAULT_DEBIAN_SUITE).accel,
      source: { spec: 'debian:sl' },
      buildSystem: 'make',
      plan: { dir: '.', packages: [], phases: [{ name: 'build', commands: ['make'] }] },
      dependencies: [],
      patches: [],
      artifacts: [{ path: 'sl', machine: 'riscv64', bits: 64, abi: 'lp64d', type: 'executable' }],
      verification: { verdict: 'verified', reason: 'sl is riscv64' },
      durations: { total: 5000 },
      recipe: '# sl\nmake\n',
      createdAt: '2026-11-30T00:00:00.000Z',
      rvportVersion: '0.1.0',
    });
    const { code, stderr, modules } = await loadedBy(
      ['port', 'debian:sl', '--mode', 'accelerated', '--out', join(dir, 'out')],
      { RVPORT_HOME: home, ANTHROPIC_API_KEY: 'sk-test-not-used' },
    );
    expect(stderr).toMatch(/recipe cache hit for sl/);
    expect(code).toBe(0);
    expect(modules.filter((m) => /\/node_modules\/(@anthropic-ai|openai|bullmq|ioredis)\//.test(m))).toEqual(
      [],
    );
  });
});
