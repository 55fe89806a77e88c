import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, gitEnvironment, SAFE_GIT_CONFIG } from './git.ts';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe('gitEnvironment', () => {
  it("passes no GIT_* variable of the caller's, only rvport's own", () => {
    process.env.GIT_DIR = '/elsewhere';
    process.env.GIT_CONFIG_COUNT = '1';
    process.env.GIT_EXEC_PATH = '/tmp/evil';
    process.env.LD_PRELOAD = '/tmp/evil.so';
    const env = gitEnvironment({ GIT_INDEX_FILE: '/x/index' });
    expect(
      Object.keys(env)
        .filter((k) => k.startsWith('GIT_'))
        .sort(),
    ).toEqual(
      [
        'GIT_ASKPASS',
        'GIT_ATTR_NOSYSTEM',
        'GIT_CONFIG_GLOBAL',
        'GIT_CONFIG_NOSYSTEM',
        'GIT_INDEX_FILE',
        'GIT_NO_LAZY_FETCH',
        'GIT_OPTIONAL_LOCKS',
        'GIT_PAGER',
        'GIT_SSH_COMMAND',
        'GIT_TERMINAL_PROMPT',
      ].sort(),
    );
    expect(env.LD_PRELOAD).toBeUndefined();
    expect(env.GIT_CONFIG_GLOBAL).toBe('/dev/null');
  });

  it('gives every command the settings that stop hooks and fsmonitor', () => {
    expect(SAFE_GIT_CONFIG).toContain('core.hooksPath=/dev/null');
    expect(SAFE_GIT_CONFIG).toContain('core.fsmonitor=false');
    expect(SAFE_GIT_CONFIG).toContain('protocol.ext.allow=never');
  });
});

describe('git', () => {
  it('ignores a GIT_DIR in the caller environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-git-'));
    process.env.GIT_DIR = join(dir, 'not-a-repo');
    writeFileSync(join(dir, 'f'), 'x');
    await git(['init', '-q', '--template=', '.'], { cwd: dir });
    expect((await git(['rev-parse', '--git-dir'], { cwd: dir })).trim()).toBe('.git');
  });

  it('turns a failure into a SourceError with the last lines of git', async () => {
    await expect(git(['rev-parse', 'HEAD'], { cwd: '/' })).rejects.toMatchObject({
      name: 'SourceError',
      code: 'acquire',
      message: expect.stringMatching(/git rev-parse failed: .*not a git repository/),
    });
  });
});
