import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyError } from '../port/steps/classifyError.ts';
import { firstErrorLine } from '../port/steps/firstErrorLine.ts';
import { configureMissingDependency, configureStop, fromConfigLog } from './configureMissingDependency.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import {
  fixture,
  heuristicContext,
  optionalDependency,
  removeWorkspaces,
} from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

/** hesiod 3.2.1's configure without libidn: "configure: error: … libidn was not found." */
const output = fixture('configure-library-not-found');
const configLog = fixture('configure-library-not-found-config-log');

describe('configure-missing-dependency', () => {
  it('installs the package the analysis already resolved for the dependency the message names', async () => {
    const t = heuristicContext(output, {
      dependencies: [optionalDependency('library', 'idn', 'libidn-dev')],
    });
    const match = await configureMissingDependency.match(t.ctx);
    expect(match?.reason).toBe('configure: error: --with-libidn was given but libidn was not found.');
    const outcome = await configureMissingDependency.apply(t.ctx, match as NonNullable<typeof match>);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['libidn-dev'] } });
    expect(outcome.description).toMatch(/installed libidn-dev/);
    expect(t.installed).toEqual([['libidn-dev']]);
  });

  it("reads config.log's failed check when the analysis does not know the dependency", async () => {
    const t = heuristicContext(output, { providers: { 'library:idn': 'libidn-dev' } });
    t.src('config.log', configLog);
    const match = await configureMissingDependency.match(t.ctx);
    // the linker's `cannot find -lidn` of the last failed check comes before the message's words
    expect(match?.key.split(',')[0]).toBe('library:idn');
    const outcome = await configureMissingDependency.apply(t.ctx, match as NonNullable<typeof match>);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['libidn-dev'] } });
    expect(t.lookups[0]).toBe('library:idn');
  });

  it('finds the library of the last failed check in the real config.log', () => {
    expect(fromConfigLog(configLog)).toEqual([{ kind: 'library', name: 'idn' }]);
  });

  it("takes pkgconf's wording, and an alternative module the same check tried before", () => {
    const log = [
      'configure:5001: checking for JSON',
      'configure:5002: $PKG_CONFIG --exists --print-errors "json-c"',
      "Package 'json-c', required by 'virtual:world', not found",
      'configure:5010: result: no',
      'configure:5020: checking for GLIB',
      'configure:5030: result: yes',
      'configure:5040: checking for JSON',
      'configure:5041: $PKG_CONFIG --exists --print-errors "json"',
      "Package 'json', required by 'virtual:world', not found",
      'configure:5050: result: no',
      'configure:5060: error: Package requirements (json) were not met:',
    ].join('\n');
    expect(fromConfigLog(log)).toEqual([
      { kind: 'pkgconfig', name: 'json' },
      { kind: 'pkgconfig', name: 'json-c' },
    ]);
  });

  it('takes a failed header check printed before the error', async () => {
    const lines = output.split('\n');
    // the same run, had configure checked a header last (AC_CHECK_HEADER prints this line)
    const at = lines.findIndex((l) => l.startsWith('checking for library containing'));
    lines.splice(at, 0, 'checking for idna.h... no');
    const t = heuristicContext(lines.join('\n'), { providers: { 'header:idna.h': 'libidn-dev' } });
    const match = await configureMissingDependency.match(t.ctx);
    expect(match?.key.split(',')).toContain('header:idna.h');
    expect(
      (await configureMissingDependency.apply(t.ctx, match as NonNullable<typeof match>)).plan?.packages,
    ).toEqual(['libidn-dev']);
  });

  it('gives up when no package provides any of the names, or the package is already there', async () => {
    const none = heuristicContext(output);
    const match = await configureMissingDependency.match(none.ctx);
    const outcome = await configureMissingDependency.apply(none.ctx, match as NonNullable<typeof match>);
    expect(outcome).toMatchObject({ applied: false });
    expect(outcome.description).toMatch(/^no Debian package provides libidn/);
    expect(none.installed).toEqual([]);

    const again = heuristicContext(output, {
      providers: { 'library:idn': 'libidn-dev' },
      plan: { ...heuristicContext('').ctx.plan, packages: ['libidn-dev'] },
    });
    const second = await configureMissingDependency.apply(
      again.ctx,
      (await configureMissingDependency.match(again.ctx)) as NonNullable<HeuristicMatchLike>,
    );
    expect(second).toMatchObject({ applied: false });
    expect(second.description).toMatch(/libidn-dev is installed but configure looked for still fails/);
  });

  it('does not read a config.log that links out of the tree', async () => {
    const t = heuristicContext(output, { providers: { 'library:idn': 'libidn-dev' } });
    const outside = join(t.workspace, 'host-config.log');
    writeFileSync(outside, configLog);
    symlinkSync(outside, join(t.workspace, 'src', 'config.log'));
    const match = await configureMissingDependency.match(t.ctx);
    expect(match?.key.split(',')).not.toContain('library:idn');
  });

  it('leaves other failures alone', async () => {
    expect(
      await configureMissingDependency.match(heuristicContext(fixture('missing-header')).ctx),
    ).toBeNull();
  });
});

type HeuristicMatchLike = Awaited<ReturnType<typeof configureMissingDependency.match>>;

describe('configure that stops with a notice block of its own', () => {
  it('reads the block as the message and the failed check that shares its words', async () => {
    const output = fixture('configure-notice-block');
    expect(configureStop(output)?.message).toBe(
      'Building this package requires DAHDI support. Please install the dahdi-linux package.',
    );
    const t = heuristicContext(output, {
      failure: { phase: 'configure', command: './configure --prefix=/usr' },
      providers: { 'header:dahdi/user.h': 'dahdi-source' },
    });
    const match = await configureMissingDependency.match(t.ctx);
    expect(match?.key).toContain('header:dahdi/user.h');
    expect(match?.key).not.toContain('gawk');
    const outcome = await configureMissingDependency.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['dahdi-source'] } });
  });

  it('gives the block as the error line and a DEPENDENCY category, not an earlier harmless check', () => {
    const output = fixture('configure-notice-block');
    expect(firstErrorLine(output)?.text).toBe(
      'configure: *** Building this package requires DAHDI support. ***',
    );
    expect(classifyError(output)).toMatchObject({
      category: 'DEPENDENCY',
      evidence: 'configure: *** Building this package requires DAHDI support. ***',
    });
  });
});
