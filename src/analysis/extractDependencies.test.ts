import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractDependencies } from './extractDependencies.ts';
import { SourceTree } from './SourceTree.ts';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function tree(files: Record<string, string>): SourceTree {
  root = mkdtempSync(join(tmpdir(), 'rvport-deps-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return SourceTree.fromDisk(root);
}

// nghttp2's shape: autotools at the root, CMake beside it, a go.mod for its integration tests
const FILES = {
  'configure.ac': 'PKG_CHECK_MODULES([SSL], [openssl])\n',
  'CMakeLists.txt': 'find_package(Libevent REQUIRED)\n',
  'integration-tests/go.mod': 'module example.org/it\n\nrequire golang.org/x/net v0.1.0\n',
};
const listed = (t: SourceTree, type?: Parameters<typeof extractDependencies>[2]) =>
  extractDependencies(t, '.', type).map((d) => `${d.kind}:${d.name}:${d.required}`);

describe('dependencies of the build that runs', () => {
  it("keeps another build system's requirements as optional hints only", () => {
    expect(listed(tree(FILES), 'autotools')).toEqual([
      'cmake-package:Libevent:false',
      'pkg-config:openssl:true',
      'go-module:golang.org/x/net:false',
    ]);
  });

  it('takes every build file as it is for a build system without a reader of its own', () => {
    expect(listed(tree(FILES), 'make')).toEqual([
      'cmake-package:Libevent:true',
      'pkg-config:openssl:true',
      'go-module:golang.org/x/net:true',
    ]);
  });
});
