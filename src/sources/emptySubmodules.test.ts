import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptySubmodules, parseGitmodules } from './emptySubmodules.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tree(files: Record<string, string>, folders: string[] = []): string {
  const root = mkdtempSync(join(tmpdir(), 'rvport-submod-'));
  dirs.push(root);
  for (const f of folders) mkdirSync(join(root, f), { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

// mbedtls's .gitmodules, as its snapshot ships it
const MBEDTLS = `[submodule "framework"]
\tpath = framework
\turl = https://github.com/Mbed-TLS/mbedtls-framework
[submodule "tf-psa-crypto"]
\tpath = tf-psa-crypto
\turl = https://github.com/Mbed-TLS/TF-PSA-Crypto.git
`;

describe('parseGitmodules', () => {
  it('reads name, path and URL of each section', () => {
    expect(parseGitmodules(MBEDTLS)).toEqual([
      { name: 'framework', path: 'framework', url: 'https://github.com/Mbed-TLS/mbedtls-framework' },
      { name: 'tf-psa-crypto', path: 'tf-psa-crypto', url: 'https://github.com/Mbed-TLS/TF-PSA-Crypto.git' },
    ]);
  });

  it('refuses paths that leave the tree and URLs that are not printable', () => {
    const text =
      '[submodule "a"]\n path = ../../etc\n url = x\n[submodule "b"]\n path = /abs\n[submodule "c"]\n path = ok/sub/\n url = "has space\x1b[2J"\n[core]\n path = not-a-submodule\n';
    expect(parseGitmodules(text)).toEqual([{ name: 'c', path: 'ok/sub', url: null }]);
  });
});

describe('emptySubmodules', () => {
  it('lists the submodules whose folder is empty or missing, not those with content', () => {
    const root = tree({ '.gitmodules': MBEDTLS, 'tf-psa-crypto/CMakeLists.txt': 'project(x)\n' }, [
      'framework',
    ]);
    expect(emptySubmodules(root).map((s) => s.path)).toEqual(['framework']);
    rmSync(join(root, 'framework'), { recursive: true });
    expect(emptySubmodules(root).map((s) => s.path)).toEqual(['framework']);
  });

  it('has none without a .gitmodules', () => {
    expect(emptySubmodules(tree({}, ['framework']))).toEqual([]);
  });

  it('does not read a .gitmodules that is a link out of the tree, nor list a folder outside', () => {
    const outside = tree({ '.gitmodules': MBEDTLS }, ['framework']);
    const root = tree({});
    symlinkSync(join(outside, '.gitmodules'), join(root, '.gitmodules'));
    expect(emptySubmodules(root)).toEqual([]);
    // a submodule folder that is a link to a full folder outside counts as absent content
    const linked = tree({ '.gitmodules': MBEDTLS, 'tf-psa-crypto/x': '' });
    writeFileSync(join(outside, 'framework', 'CMakeLists.txt'), 'project(x)\n');
    symlinkSync(join(outside, 'framework'), join(linked, 'framework'));
    expect(emptySubmodules(linked).map((s) => s.path)).toEqual(['framework']);
  });
});
