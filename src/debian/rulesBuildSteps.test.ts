import { describe, expect, it } from 'vitest';
import { rulesBuildSteps } from './rulesBuildSteps.ts';

describe('rulesBuildSteps', () => {
  it('names the build steps a debian/rules replaces or extends, and nothing of the packaging', () => {
    const rules = [
      '#!/usr/bin/make -f',
      '%:',
      '\tdh $@ --builddirectory=build/',
      'override_dh_clean:',
      '\tdh_clean',
      'override_dh_auto_configure:',
      '\tdh_auto_configure -- -DLOADER_CODEGEN=ON',
      'override_dh_auto_build:',
      '\tdh_auto_build -- loader_codegen',
      'execute_before_dh_auto_test-arch:',
      '\ttrue',
      'override_dh_missing:',
      '\tdh_missing --fail-missing',
      'override_dh_auto_build:',
    ].join('\n');
    expect(rulesBuildSteps(rules)).toEqual([
      'override_dh_auto_configure',
      'override_dh_auto_build',
      'execute_before_dh_auto_test-arch',
    ]);
    expect(rulesBuildSteps('%:\n\tdh $@\n')).toEqual([]);
  });
});
