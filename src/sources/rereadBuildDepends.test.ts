import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rereadBuildDepends } from './keepDebianPackaging.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('rereadBuildDepends', () => {
  it("reads a kept debian/control again with today's rules, not the record's", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-packaging-'));
    made.push(dir);
    writeFileSync(
      join(dir, 'control'),
      'Source: demo\nBuild-Depends: debhelper-compat (= 13), docbook-utils <!nodoc>, libglib2.0-dev\n',
    );
    // a record written before nodoc was a profile rvport builds with
    const stale = { dir, buildDepends: [['docbook-utils'], ['libglib2.0-dev']], patches: [], problems: [] };
    expect(rereadBuildDepends(stale).buildDepends).toEqual([['libglib2.0-dev']]);
    // and debian/rules's build steps, which a record from before did not hold
    writeFileSync(join(dir, 'rules'), '%:\n\tdh $@\noverride_dh_auto_build:\n\tdh_auto_build -- codegen\n');
    expect(rereadBuildDepends(stale).rulesSteps).toEqual(['override_dh_auto_build']);
    // a control that cannot be read leaves the record as it was
    expect(rereadBuildDepends({ ...stale, dir: join(dir, 'gone') })).toEqual({
      ...stale,
      dir: join(dir, 'gone'),
    });
  });
});
