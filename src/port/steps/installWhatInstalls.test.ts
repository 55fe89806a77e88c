import { describe, expect, it } from 'vitest';
import { installWhatInstalls } from './installWhatInstalls.ts';

/** An install that fails whenever the group holds a broken package, recording every try. */
function fakeApt(broken: readonly string[]) {
  const tries: string[][] = [];
  const tryInstall = async (group: readonly string[]) => {
    tries.push([...group]);
    return !group.some((p) => broken.includes(p));
  };
  return { tries, tryInstall };
}

describe('installWhatInstalls', () => {
  it('installs everything in one try when nothing is broken', async () => {
    const apt = fakeApt([]);
    expect(await installWhatInstalls(['a', 'b', 'c'], apt.tryInstall)).toEqual({
      installed: ['a', 'b', 'c'],
      leftOut: [],
      untried: [],
    });
    expect(apt.tries).toEqual([['a', 'b', 'c']]);
  });

  it('narrows a failure down to the broken package and installs the others', async () => {
    const apt = fakeApt(['systemd']);
    const result = await installWhatInstalls(['bison', 'flex', 'systemd', 'zlib1g-dev'], apt.tryInstall);
    expect(result).toEqual({ installed: ['bison', 'flex', 'zlib1g-dev'], leftOut: ['systemd'], untried: [] });
    expect(apt.tries).toEqual([
      ['bison', 'flex', 'systemd', 'zlib1g-dev'],
      ['bison', 'flex'],
      ['systemd', 'zlib1g-dev'],
      ['systemd'],
      ['zlib1g-dev'],
    ]);
  });

  it('leaves out what the budget does not reach', async () => {
    const apt = fakeApt(['a', 'h']);
    const result = await installWhatInstalls(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], apt.tryInstall, 3);
    expect(apt.tries).toHaveLength(3);
    expect(result.installed).toEqual([]);
    expect(result.untried.sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });

  it('does nothing for no packages', async () => {
    const apt = fakeApt([]);
    expect(await installWhatInstalls([], apt.tryInstall)).toEqual({
      installed: [],
      leftOut: [],
      untried: [],
    });
    expect(apt.tries).toEqual([]);
  });
});
