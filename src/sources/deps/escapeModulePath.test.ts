import { describe, expect, it } from 'vitest';
import { escapeModulePath, escapeModuleVersion } from './escapeModulePath.ts';

describe('escapeModulePath', () => {
  it("encodes upper case as the proxy protocol does ('!' and the lower-case letter)", () => {
    expect(escapeModulePath('github.com/BurntSushi/toml')).toBe('github.com/!burnt!sushi/toml');
    expect(escapeModulePath('golang.org/x/mod')).toBe('golang.org/x/mod');
    expect(escapeModuleVersion('v1.0.0-RC1')).toBe('v1.0.0-!r!c1');
  });

  it('refuses paths and versions that could leave the store or the proxy URL', () => {
    for (const bad of ['../etc', 'a/../b', '/abs', 'a//b', 'a/.hidden', 'a\\b', 'a b', 'a/!x', 'a?x']) {
      expect(() => escapeModulePath(bad), bad).toThrow(/not a Go module path/);
    }
    for (const bad of ['1.0.0', 'v1/../../x', 'v1..2', 'v1.0.0/x', '']) {
      expect(() => escapeModuleVersion(bad), bad).toThrow(/not a Go module version/);
    }
  });
});
