import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rvportHome } from '../../src/config/rvportHome.ts';
import { imageKeys } from '../../src/sandbox/findImages.ts';
import { DEFAULT_SUITE } from '../../src/sandbox/imageRecipes.ts';
import { sandboxPaths } from '../../src/sandbox/sandboxPaths.ts';
import { ensureCorpus } from '../helpers/corpus.ts';
import { runCli } from '../helpers/rvportCli.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from '../sandbox/provisionedImages.ts';

// A first port provisions what the sandbox lacks. The rootfs and the tools tree (minutes each)
// are shared with the machine's RVPORT_HOME; the accelerated layer is missing from this home, so
// the port must build it before it can build the package.
const MINUTES = 60_000;
let home: string;
let work: string;
let corpus: string;

beforeAll(async () => {
  await provisionedImages();
  corpus = await ensureCorpus(['sl']);
  home = mkdtempSync(join(tmpdir(), 'rvport-first-port-'));
  work = mkdtempSync(join(tmpdir(), 'rvport-first-port-work-'));
  const shared = sandboxPaths(rvportHome());
  const own = sandboxPaths(home);
  mkdirSync(own.images, { recursive: true });
  const keys = imageKeys(DEFAULT_SUITE);
  for (const key of [keys.rootfs, keys.tools]) symlinkSync(shared.image(key), own.image(key));
  symlinkSync(shared.debCache, own.debCache);
  if (existsSync(join(rvportHome(), 'debian-contents')))
    symlinkSync(join(rvportHome(), 'debian-contents'), join(home, 'debian-contents'));
}, PROVISION_TIMEOUT_MS);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('the first port on a machine', () => {
  it(
    'provisions the missing accelerated layer, says so, then ports',
    async () => {
      const run = await runCli(
        ['port', join(corpus, 'sl'), '--mode', 'accelerated', '--offline', '--out', 'out', '--json'],
        { cwd: work, env: { RVPORT_HOME: home } },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/provisioning the riscv64 sandbox \(accelerated, first run only/);
      expect(JSON.parse(run.stdout)).toMatchObject({ result: 'verified' });
      const layer = sandboxPaths(home).image(imageKeys(DEFAULT_SUITE).accel);
      expect(lstatSync(layer).isSymbolicLink()).toBe(false);
      expect(JSON.parse(readFileSync(join(layer, 'image.json'), 'utf8'))).toMatchObject({
        key: imageKeys(DEFAULT_SUITE).accel,
      });

      const again = await runCli(
        [
          'port',
          join(corpus, 'sl'),
          '--mode',
          'accelerated',
          '--offline',
          '--out',
          'out',
          '--force',
          '--json',
        ],
        { cwd: work, env: { RVPORT_HOME: home } },
      );
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toMatch(/provisioning/);
    },
    30 * MINUTES,
  );
});
