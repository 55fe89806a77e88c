// Start-up time of the CLI: `rvport --version` and a port answered from the recipe cache, each
// run repeatedly by hyperfine. The cache hit runs in a throwaway RVPORT_HOME holding one entry.
//   npm run build && npx tsx bench/startup.ts
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DEBIAN_SUITE } from '../src/debian/debianMirror.ts';
import { RecipeCache } from '../src/recipes/RecipeCache.ts';
import { imageKeys } from '../src/sandbox/findImages.ts';

const bin = fileURLToPath(new URL('../bin/rvport.js', import.meta.url));
if (!existsSync(new URL('../dist/.built', import.meta.url))) {
  console.error('no build: run `npm run build` first (otherwise this measures tsx)');
  process.exit(1);
}
const home = mkdtempSync(join(tmpdir(), 'rvport-bench-startup-'));
try {
  await new RecipeCache(join(home, 'recipes')).put({
    formatVersion: 1,
    package: 'sl',
    imageId: imageKeys(DEFAULT_DEBIAN_SUITE).accel,
    source: { spec: 'debian:sl' },
    buildSystem: 'make',
    plan: { dir: '.', packages: ['libncurses-dev'], phases: [{ name: 'build', commands: ['make'] }] },
    dependencies: ['libncurses-dev'],
    patches: [],
    artifacts: [{ path: 'sl', machine: 'riscv64', bits: 64, abi: 'lp64d', type: 'executable' }],
    verification: { verdict: 'verified', reason: 'sl is riscv64' },
    durations: { total: 5000 },
    recipe: '# sl for riscv64\nmake\n',
    createdAt: '2026-11-30T00:00:00.000Z',
    rvportVersion: '0.1.0',
  });
  const out = join(home, 'out');
  const hit = `env RVPORT_HOME=${home} node ${bin} port debian:sl --mode accelerated --out ${out}`;
  const check = spawnSync('sh', ['-c', hit], { encoding: 'utf8' });
  if (!/recipe cache hit/.test(check.stderr))
    throw new Error(`not a cache hit (exit ${check.status}):\n${check.stderr}${check.stdout}`);
  const commands = ['-n', 'rvport --version', `node ${bin} --version`, '-n', 'cache hit', hit];
  const run = spawnSync('hyperfine', ['--warmup', '3', '--runs', '20', '-N', ...commands], {
    stdio: 'inherit',
  });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(home, { recursive: true, force: true });
}
