import { describe, expect, it } from 'vitest';
import { goExcludes } from './goExcludes.ts';

describe('goExcludes', () => {
  it("reads dh-golang's excludes over continued lines", () => {
    const rules = [
      '#!/usr/bin/make -f',
      'export DH_GOLANG_INSTALL_EXTRA := internal/ci/ci.tmpl',
      '',
      '# the former would require many new packages',
      'export DH_GOLANG_EXCLUDES := \\',
      '\tcmd/atlas internal/integration',
      '',
      '%:',
      '\tdh $@ --builddirectory=_build --buildsystem=golang',
    ].join('\n');
    expect(goExcludes(rules)).toEqual(['cmd/atlas', 'internal/integration']);
  });

  it('appends with +=, replaces with =, and leaves out what make or a shell would expand', () => {
    const rules = [
      'DH_GOLANG_EXCLUDES = old/one',
      'DH_GOLANG_EXCLUDES = examples/',
      'DH_GOLANG_EXCLUDES += tools/.*gen $(EXTRA) "quoted" # a comment',
    ].join('\n');
    expect(goExcludes(rules)).toEqual(['examples/', 'tools/.*gen']);
  });

  it('is empty for rules without them', () => {
    expect(goExcludes('%:\n\tdh $@ --buildsystem=golang\n')).toEqual([]);
  });
});
