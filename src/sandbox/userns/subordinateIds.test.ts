import { describe, expect, it } from 'vitest';
import { isSandboxError } from '../errors.ts';
import { findSubordinateRange, readSubordinateIds } from './subordinateIds.ts';

const owner = { name: 'porter', id: 1000 };

describe('findSubordinateRange', () => {
  it("takes the owner's first range of at least 65536 ids, by name or by uid", () => {
    const text = 'alice:100000:65536\nporter:165536:1000\nporter:200000:65536\n';
    expect(findSubordinateRange(text, owner)).toEqual({ start: 200000, count: 65536 });
    expect(findSubordinateRange('1000:300000:70000\n', owner)).toEqual({ start: 300000, count: 70000 });
  });

  it('never takes a range that starts at host id 0, nor a malformed line', () => {
    expect(findSubordinateRange('porter:0:65536\nporter:x:65536\nporter\n', owner)).toBeUndefined();
  });
});

describe('readSubordinateIds', () => {
  it('says which file lacks the range and how to add one', () => {
    const files: Record<string, string> = { '/etc/subuid': 'porter:100000:65536\n', '/etc/subgid': '' };
    try {
      readSubordinateIds(owner, (path) => files[path] ?? '');
      expect.unreachable();
    } catch (error) {
      expect(isSandboxError(error) && error.code).toBe('host-not-ready');
      expect((error as Error).message).toMatch(/subordinate group ids in \/etc\/subgid/);
      expect(isSandboxError(error) && error.fix).toMatch(
        /^usermod --add-subuids 100000-165535 --add-subgids 100000-165535 porter/,
      );
    }
  });
});
