import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeCacheHitOutputs } from '../../src/port/outputs/writePortOutputs.ts';
import { RecipeCache } from '../../src/recipes/RecipeCache.ts';

// A recipe bundle is someone else's file. Its plan becomes build.sh on a cache hit, which a
// person then runs as root: nothing in the plan's data may become shell code of the script.
let work: string;
let canary: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'rvport-sec-buildsh-'));
  canary = join(work, 'CANARY');
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

function bundle(plan: Record<string, unknown>, name = 'demo'): string {
  return JSON.stringify({
    entries: [
      {
        formatVersion: 1,
        package: name,
        imageId: 'img-1',
        source: { spec: '/src/demo' },
        buildSystem: 'make',
        plan: { dir: '.', packages: [], phases: [], ...plan },
        dependencies: [],
        patches: [],
        artifacts: [],
        verification: { verdict: 'verified', reason: 'x' },
        durations: {},
        recipe: '# demo\n',
        createdAt: '2026-01-01T00:00:00Z',
        rvportVersion: '0',
      },
    ],
  });
}

async function hit(text: string) {
  const cache = new RecipeCache(join(work, 'cache'));
  const [entry] = await cache.importBundle(text, 'bundle.json');
  const out = join(work, 'out');
  mkdirSync(out, { recursive: true });
  return { out, files: await writeCacheHitOutputs(entry as NonNullable<typeof entry>, out) };
}

describe('build.sh from an imported recipe bundle', () => {
  it('exports hostile environment values and runs hostile-looking names as plain data', async () => {
    const value = `$(touch ${canary})\`touch ${canary}\`'"\n; touch ${canary}`;
    const { out, files } = await hit(
      bundle({
        env: { CFLAGS: value, LD_PRELOAD: `/tmp/$(touch ${canary})` },
        phases: [
          {
            name: 'build',
            commands: [
              'printenv CFLAGS > "$DESTDIR/cflags"; printenv LD_PRELOAD >> "$DESTDIR/cflags" || true',
            ],
          },
        ],
      }),
    );
    expect(files.written).toContain('build.sh');
    const source = join(work, 'source');
    mkdirSync(source);
    const run = spawnSync('sh', [join(out, 'build.sh'), source], {
      cwd: work,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SKIP_APT_GET: '1', DESTDIR: join(work, 'dest') },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(canary)).toBe(false);
    // the value arrives as it was written; the loader variable never reaches the script
    expect(readFileSync(join(work, 'dest', 'cflags'), 'utf8')).toBe(`${value}\n`);
    expect(readFileSync(join(out, 'build.sh'), 'utf8')).not.toContain('export LD_PRELOAD');
  });

  it('writes no build.sh for a package name that is not Debian syntax, and says why', async () => {
    const { out, files } = await hit(bundle({ packages: [`zlib$(touch ${canary})`] }));
    expect(files.written).toContain('recipe.md');
    expect(files.written).not.toContain('build.sh');
    expect(files.scriptError).toMatch(/not a Debian package name/);
    expect(existsSync(join(out, 'build.sh'))).toBe(false);
    expect(existsSync(join(out, 'packages.txt'))).toBe(false);
    expect(existsSync(canary)).toBe(false);
  });

  it('writes no build.sh for a build folder outside the source', async () => {
    const text = bundle({ dir: 'a/../../..' });
    // the cache itself refuses the `..` segment; a bundle with one never gets as far as a script
    await expect(hit(text)).rejects.toThrow(/relative path inside the port/);
  });
});
