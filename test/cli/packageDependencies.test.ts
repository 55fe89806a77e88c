import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every runtime dependency is installed by each user of the package: one that nothing imports
// is download size and attack surface for nothing.
const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

function shippedSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : shippedSources(path);
    return /\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('package.json dependencies', () => {
  it('are each imported by the shipped code (src without tests, bin)', () => {
    const code = [...shippedSources(join(root, 'src')), ...shippedSources(join(root, 'bin'))]
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const imported = (name: string) =>
      new RegExp(`(from|import\\()\\s*'${name.replace('/', '\\/')}(/[^']*)?'`).test(code);
    const unused = Object.keys(pkg.dependencies).filter((name) => !imported(name));
    expect(unused).toEqual([]);
  });
});
