import { describe, expect, it } from 'vitest';
import { recognizeTree } from './recognizeTree.ts';
import { SourceTree } from './SourceTree.ts';

describe('recognizeTree', () => {
  it("names an ecosystem by the file at the tree's top that says how it builds", () => {
    expect(recognizeTree(SourceTree.fromFiles({ 'META6.json': '{}', 'lib/A.rakumod': '' }))).toEqual({
      what: 'a Raku distribution',
      evidence: 'META6.json',
      buildsWith: 'zef (`zef build .`, `zef test .`) or its Build.rakumod',
    });
    expect(recognizeTree(SourceTree.fromFiles({ 'demo.cabal': '', 'src/Main.hs': '' }))?.what).toBe(
      'a Haskell package',
    );
    expect(recognizeTree(SourceTree.fromFiles({ 'dune-project': '', 'bin/dune': '' }))?.evidence).toBe(
      'dune-project',
    );
  });

  it("falls back to the tree's Debian packaging, and says nothing of a tree with no marker", () => {
    expect(
      recognizeTree(SourceTree.fromFiles({ 'debian/rules': '#!/usr/bin/make -f\n', 'x.pl': '' }))?.evidence,
    ).toBe('debian/rules');
    expect(recognizeTree(SourceTree.fromFiles({ 'notes.txt': '', 'sub/META6.json': '' }))).toBeNull();
    // a bare ".cabal" is no package description
    expect(recognizeTree(SourceTree.fromFiles({ '.cabal': '' }))).toBeNull();
  });
});
