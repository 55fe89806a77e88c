import { describe, expect, it } from 'vitest';
import { extractDependencies } from '../extractDependencies.ts';
import { SourceTree } from '../SourceTree.ts';

describe('go imports of a package without go.mod', () => {
  it('takes the non-standard imports of its files and tests, and nothing where a go.mod is', () => {
    const tree = SourceTree.fromFiles({
      'request.go': [
        'package socks5',
        '',
        'import (',
        '\t"fmt"',
        '\t"net"',
        '',
        '\t"golang.org/x/net/context"',
        '\tyaml "gopkg.in/yaml.v2"',
        ')',
      ].join('\n'),
      'request_test.go': 'package socks5\n\nimport "github.com/stretchr/testify/assert"\n',
      'cmd/tool/main.go': 'package main\n\nimport "C"\nimport "os"\n',
    });
    const deps = extractDependencies(tree, '.', 'go');
    expect(deps.map((d) => `${d.name}:${d.file}:${d.line}`)).toEqual([
      'golang.org/x/net/context:request.go:3',
      'gopkg.in/yaml.v2:request.go:3',
      'github.com/stretchr/testify/assert:request_test.go:3',
    ]);
    const moduleTree = SourceTree.fromFiles({
      'go.mod': 'module example.com/m\n\ngo 1.22\n\nrequire golang.org/x/sys v0.1.0\n',
      'sub/a.go': 'package sub\n\nimport "golang.org/x/net/context"\n',
    });
    expect(extractDependencies(moduleTree, '.', 'go').map((d) => d.name)).toEqual(['golang.org/x/sys']);
  });
});
