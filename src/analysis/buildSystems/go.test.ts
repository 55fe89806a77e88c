import { describe, expect, it } from 'vitest';
import { detectBuildSystems } from '../detectBuildSystems.ts';
import { SourceTree } from '../SourceTree.ts';
import { go } from './go.ts';

describe('go detector', () => {
  it('finds go.mod and its module path', () => {
    expect(
      go.detect(SourceTree.fromFiles({ 'go.mod': 'module github.com/BurntSushi/toml\n\ngo 1.18\n' }), ''),
    ).toMatchObject({
      confidence: 0.9,
      details: { module: 'github.com/BurntSushi/toml' },
    });
    expect(go.detect(SourceTree.fromFiles({ 'main.go': 'package main' }), '')).toBeNull();
    expect(
      go.defaultPlan({ type: 'go', confidence: 0.9, dir: '.', evidence: [], details: {} })[0]?.commands,
    ).toEqual([
      'GOTOOLCHAIN=local GOFLAGS=-buildvcs=false go build -o build/bin/ ./...',
      'GOTOOLCHAIN=local GOFLAGS=-buildvcs=false go test -c -o build/test/ ./...',
    ]);
  });

  it('gives way to a C build system beside the go.mod (Go bindings of a C project)', () => {
    const files = {
      'go.mod': 'module github.com/nghttp2/nghttp2\n\ngo 1.25\n',
      'configure.ac': 'AC_INIT([nghttp2], [1.0])\n',
      'Makefile.am': '',
      'CMakeLists.txt': 'project(nghttp2 C)\n',
    };
    expect(go.detect(SourceTree.fromFiles(files), '')).toMatchObject({ confidence: 0.5 });
    const [top] = detectBuildSystems(SourceTree.fromFiles(files));
    expect(top?.type).not.toBe('go');
  });
});
