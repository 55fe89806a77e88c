import { describe, expect, it } from 'vitest';
import { dhInternalOptions, dhSequenceOptions } from './dhSequenceOptions.ts';

describe('dhSequenceOptions', () => {
  it('takes the options dh hands on to its commands, not its addons', () => {
    const rules =
      '#!/usr/bin/make -f\n%:\n\tdh $@ --builddirectory=_build --buildsystem=golang --with=golang\n';
    expect(dhSequenceOptions(rules)).toEqual(['--builddirectory=_build', '--buildsystem=golang']);
    expect(dhInternalOptions(dhSequenceOptions(rules))).toEqual([
      '-a',
      '-O--builddirectory=_build',
      '-O--buildsystem=golang',
    ]);
  });

  it('reads $(@), separate values, continued lines, and leaves out what make would expand', () => {
    const rules = [
      '%:',
      '\tdh $(@) -B build \\',
      '\t\t--buildsystem cmake $(DH_EXTRA) --without autoreconf --parallel',
    ].join('\n');
    expect(dhSequenceOptions(rules)).toEqual(['-Bbuild', '--buildsystem=cmake', '--parallel']);
  });

  it('is empty without a dh sequence line or options', () => {
    expect(dhSequenceOptions('%:\n\tdh $@\n')).toEqual([]);
    expect(dhSequenceOptions('build:\n\t$(MAKE)\n')).toEqual([]);
  });
});
