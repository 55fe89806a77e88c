// What the apt layer (src/sandbox/packages/aptLayer.ts: apt's binary caches made once per stack,
// no debconf preconfigure pass) saves on installing packages: the same packages installed in fresh
// instances with and without the layer, alternating, in each mode asked for. Times are the whole
// installPackages call (apt listing the downloads, the .debs fetched or taken from the host's
// cache, apt and dpkg installing them), as a port's packages step pays it.
// Needs root and a provisioned sandbox. Usage:
//   nice -n 5 npx tsx bench/apt-layer.ts [--modes native-userland,accelerated] [--rounds 3] PKG…
//   e.g. npx tsx bench/apt-layer.ts libidn-dev autotools-dev
import { parseArgs } from 'node:util';
import { createInstance } from '../src/sandbox/chroot/instanceStore.ts';
import { findImages, type SandboxMode, sandboxPaths } from '../src/sandbox/index.ts';
import { layerStack } from '../src/sandbox/layerStack.ts';
import { ensureAptLayer, type LayerStack } from '../src/sandbox/packages/aptLayer.ts';
import { readSubordinateIds } from '../src/sandbox/userns/subordinateIds.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    modes: { type: 'string', default: 'native-userland,accelerated' },
    rounds: { type: 'string', default: '3' },
  },
});
const packages = positionals.length > 0 ? positionals : ['libidn-dev'];
const rounds = Number(values.rounds);
const paths = sandboxPaths();
const images = await findImages();
const ids = readSubordinateIds();
const stackOf = (mode: SandboxMode): LayerStack => layerStack(images, mode).stack;

async function timeInstall(stack: LayerStack): Promise<number> {
  const box = await createInstance(paths, { ...stack, keep: false });
  try {
    const started = Date.now();
    const result = await box.installPackages(packages);
    if (result.exitCode !== 0) throw new Error(`install failed: ${result.stderr.slice(-400)}`);
    return (Date.now() - started) / 1000;
  } finally {
    await box.destroy();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(`| mode | packages | without the apt layer | with it | saved |`);
console.log('|---|---|---|---|---|');
for (const mode of values.modes.split(',') as SandboxMode[]) {
  const stack = stackOf(mode);
  const apt = await ensureAptLayer(paths, stack, ids);
  if (apt.cachesMissing) process.stderr.write(`${mode}: the layer has no caches: ${apt.cachesMissing}\n`);
  const without: number[] = [];
  const withLayer: number[] = [];
  for (let i = 0; i < rounds; i++) {
    without.push(await timeInstall(stack));
    withLayer.push(await timeInstall({ ...stack, lowerKeys: [apt.key, ...stack.lowerKeys] }));
    process.stderr.write(`${mode} round ${i + 1}: ${without.at(-1)} s without, ${withLayer.at(-1)} s with\n`);
  }
  const a = median(without);
  const b = median(withLayer);
  console.log(
    `| ${mode} | ${packages.join(' ')} | ${a.toFixed(1)} s (${without.map((x) => x.toFixed(1)).join(', ')}) | ${b.toFixed(1)} s (${withLayer.map((x) => x.toFixed(1)).join(', ')}) | ${(a - b).toFixed(1)} s (${Math.round(((a - b) / a) * 100)} %) |`,
  );
}
