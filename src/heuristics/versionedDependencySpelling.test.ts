import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../sandbox/index.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, makePlan, removeWorkspaces } from './testing/heuristicContext.ts';
import { versionedDependencySpelling } from './versionedDependencySpelling.ts';

afterEach(removeWorkspaces);

// postgresql-pllua's Makefile, as released: FreeBSD's names for Lua 5.3
const MAKEFILE = `PG_CONFIG ?= pg_config
LUA_INCDIR ?= /usr/local/include/lua53
LUALIB ?= -L/usr/local/lib -llua-5.3
LUAC ?= luac53
LUA ?= lua53
#LUA_INCDIR = /usr/local/include/luajit-2.1

LUAVER = $(shell $(LUA) -e 'print(_VERSION:match("^Lua ([0-9.]+)"))')
`;

/** A context whose sandbox answers `sh -c SCRIPT` as Debian's riscv64 sandbox with lua5.3 would. */
function withSandbox(answer: (script: string) => string) {
  const t = heuristicContext(fixture('make-versioned-command'), {
    plan: makePlan,
    failure: { phase: 'build', command: 'make -j"$(nproc)"', exitCode: 2 },
  });
  const scripts: string[] = [];
  const run = async (argv: readonly string[]) => {
    scripts.push(String(argv[2]));
    return { exitCode: 0, stdout: answer(String(argv[2])), stderr: '' };
  };
  return { ...t, scripts, ctx: { ...t.ctx, sandbox: { ...t.ctx.sandbox, run } as unknown as Sandbox } };
}

const DEBIAN = (script: string) =>
  [
    /-v '?lua5\.3\b/.test(script) ? 'command lua5.3' : '',
    /-v '?luac5\.3\b/.test(script) ? 'command luac5.3' : '',
    'cflags -I/usr/include/lua5.3',
    'libs -llua5.3',
  ].join('\n');

describe('versioned-dependency-spelling', () => {
  it("sets the makefile's Lua settings in Debian's spelling when make cannot run lua53", async () => {
    const t = withSandbox(DEBIAN);
    t.src('Makefile', MAKEFILE);
    const match = (await versionedDependencySpelling.match(t.ctx)) as HeuristicMatch;
    expect(match.key).toBe('versioned-spelling:lua53');
    const outcome = await versionedDependencySpelling.apply(t.ctx, match);
    expect(outcome.applied).toBe(true);
    const settings = 'LUA_INCDIR=/usr/include/lua5.3 LUALIB=-llua5.3 LUAC=luac5.3 LUA=lua5.3';
    expect(outcome.plan?.phases.map((p) => p.commands[0])).toEqual([
      `make -j"$(nproc)" ${settings}`,
      `make install DESTDIR=/build/dest ${settings}`,
    ]);
    // PG_CONFIG and the commented luajit line are not the versioned dependency's
    expect(outcome.description).not.toContain('PG_CONFIG');
    expect(outcome.description).not.toContain('luajit');
  });

  it('sets only what the sandbox has, and nothing when it has none of it', async () => {
    const noPkgConfig = withSandbox((script) => (/-v '?lua5\.3\b/.test(script) ? 'command lua5.3' : ''));
    noPkgConfig.src('Makefile', MAKEFILE);
    const match = (await versionedDependencySpelling.match(noPkgConfig.ctx)) as HeuristicMatch;
    const partial = await versionedDependencySpelling.apply(noPkgConfig.ctx, match);
    expect(partial.plan?.phases[0]?.commands[0]).toBe('make -j"$(nproc)" LUA=lua5.3');

    const nothing = withSandbox(() => '');
    nothing.src('Makefile', MAKEFILE);
    const none = await versionedDependencySpelling.apply(nothing.ctx, match);
    expect(none.applied).toBe(false);
    expect(none.description).toContain('lua53');
  });

  it('stays out of failures that are not a versioned command, or not make', async () => {
    const other = heuristicContext('make: foo: No such file or directory\n', {
      failure: { phase: 'build', command: 'make' },
    });
    expect(await versionedDependencySpelling.match(other.ctx)).toBeNull();
    const cmake = heuristicContext(fixture('make-versioned-command'), {
      failure: { phase: 'build', command: 'cmake --build build' },
    });
    expect(await versionedDependencySpelling.match(cmake.ctx)).toBeNull();
  });
});
