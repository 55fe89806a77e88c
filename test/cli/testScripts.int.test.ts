import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `npm run test:unit` is the quick suite: the unit tests beside the code, none of the integration
// tests (no root, no sandbox, no Redis). `npm test` stays the one command that runs everything.
const root = fileURLToPath(new URL('../../', import.meta.url));
const scripts = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

/** The files a vitest script would run, listed by vitest itself with the script's own arguments. */
function filesOf(script: string): string[] {
  const command = script.replace(/^vitest run\b/, 'npx vitest list --filesOnly');
  expect(command).not.toBe(script); // the script is a vitest run
  const listed = spawnSync('sh', ['-c', command], { cwd: root, encoding: 'utf8' });
  expect(listed.status, listed.stderr).toBe(0);
  return listed.stdout.split('\n').filter(Boolean).sort();
}

describe('npm test scripts', () => {
  it("test:unit runs exactly the unit tests under src/ (and the front end's, under web/src/)", () => {
    const unit = [...testFiles(join(root, 'src')), ...testFiles(join(root, 'web'))]
      .filter((f) => !f.endsWith('.int.test.ts'))
      .sort();
    expect(unit.length).toBeGreaterThan(50);
    expect(filesOf(scripts['test:unit'] as string)).toEqual(unit);
  });

  it('test chains the check, the type check, the architecture check and every test with && (non-zero at the first failure)', () => {
    expect(scripts.test).toBe('npm run check && npm run typecheck && npm run check:deps && npm run test:all');
    // the architecture check fails on any violation (none is known and let through)
    expect(scripts['check:deps']).toBe('depcruise src --config .dependency-cruiser.cjs --output-type err');
    const all = [
      ...testFiles(join(root, 'src')),
      ...testFiles(join(root, 'test')),
      ...testFiles(join(root, 'web')),
    ].sort();
    expect(filesOf(scripts['test:all'] as string)).toEqual(all);
  });
});
