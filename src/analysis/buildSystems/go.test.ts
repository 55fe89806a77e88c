import { describe, expect, it } from 'vitest';
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
});
