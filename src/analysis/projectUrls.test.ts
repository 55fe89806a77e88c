import { describe, expect, it } from 'vitest';
import { projectUrls } from './projectUrls.ts';
import { SourceTree } from './SourceTree.ts';

describe('projectUrls', () => {
  it("takes the tree's own URLs from its build files and README, not those of what it uses", () => {
    const tree = SourceTree.fromFiles({
      'configure.ac':
        'AC_INIT([libdemo], [1.2], [https://github.com/demo-org/libdemo/issues], [libdemo], [https://demo.example.org/])\n',
      'README.md': [
        '# libdemo',
        'Source: https://github.com/demo-org/libdemo.',
        'It uses zlib (https://github.com/madler/zlib) and https://example.com/other.',
      ].join('\n'),
      'libdemo.pc.in': 'Name: libdemo\nURL: https://demo.example.org/pc\n',
      'src/README.md': 'https://github.com/demo-org/libdemo-extras',
    });
    expect(projectUrls(tree, 'checkout')).toEqual([
      { url: 'https://github.com/demo-org/libdemo/issues', file: 'configure.ac' },
      { url: 'https://demo.example.org/', file: 'configure.ac' },
      { url: 'https://demo.example.org/pc', file: 'libdemo.pc.in' },
      { url: 'https://github.com/demo-org/libdemo', file: 'README.md' },
    ]);
  });

  it("reads CMake's HOMEPAGE_URL, Cargo's repository and go.mod's module path", () => {
    const tree = SourceTree.fromFiles({
      'CMakeLists.txt': 'project(fmt CXX HOMEPAGE_URL "https://fmt.dev")\n',
      'Cargo.toml': '[package]\nname = "x"\nrepository = "https://github.com/o/x"\n',
      'go.mod': 'module github.com/o/tool/v2\n\ngo 1.21\n',
    });
    expect(projectUrls(tree, 'x').map((u) => u.url)).toEqual([
      'https://fmt.dev',
      'https://github.com/o/x',
      'https://github.com/o/tool',
    ]);
  });
});
