import { describe, expect, it } from 'vitest';
import { compareCrateVersions, satisfiesCrateRequirement } from './cargoVersion.ts';

describe('cargo version requirements', () => {
  it.each([
    ['1.0', '1.0.7', true],
    ['1.0', '2.0.0', false],
    ['^0.2.150', '0.2.169', true],
    ['^0.2.150', '0.3.0', false],
    ['0.2.150', '0.2.100', false],
    ['0.0.3', '0.0.4', false],
    ['~1.2', '1.2.9', true],
    ['~1.2', '1.3.0', false],
    ['=1.0.6', '1.0.7', false],
    ['=1.0.7', '1.0.7', true],
    ['>=1.0.100, <2', '1.0.139', true],
    ['>=1.0.100, <2', '2.0.0', false],
    ['*', '7.1.3', true],
    ['1.*', '1.9.0', true],
    ['1.*', '2.0.0', false],
    ['>0.4', '0.5.0', true],
    ['>0.4', '0.4.9', false],
    ['<=1.2', '1.2.5', true],
  ])('%s against %s is %s', (requirement, version, expected) => {
    expect(satisfiesCrateRequirement(requirement, version)).toBe(expected);
  });

  it('orders versions numerically', () => {
    expect(['1.0.10', '1.0.9', '0.9.0', '2.0.0'].sort(compareCrateVersions)).toEqual([
      '0.9.0',
      '1.0.9',
      '1.0.10',
      '2.0.0',
    ]);
  });
});
