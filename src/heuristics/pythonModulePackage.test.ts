import { afterEach, describe, expect, it } from 'vitest';
import { pythonModuleCandidates, pythonModulePackage } from './pythonModulePackage.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const offering =
  (...names: string[]) =>
  async () =>
    new Set(names);

describe('python-module-package', () => {
  it('installs python3-six for a build script that imports six, and adds it to the plan', async () => {
    const t = heuristicContext(fixture('python-module-missing'), {
      failure: { phase: 'build', command: 'make' },
    });
    t.ctx.installable = offering('python3-six', 'python3-yaml');
    const match = await pythonModulePackage.match(t.ctx);
    expect(match).toEqual({ key: 'six', reason: 'Python could not import six' });
    const outcome = await pythonModulePackage.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.applied).toBe(true);
    expect(t.installed).toEqual([['python3-six']]);
    expect(outcome.plan?.packages).toEqual(['python3-six']);
  });

  it("follows Debian's names where they differ from the module's", async () => {
    expect(pythonModuleCandidates('distutils.core')[0]).toBe('python3-setuptools');
    expect(pythonModuleCandidates('google.protobuf')[0]).toBe('python3-protobuf');
    expect(pythonModuleCandidates('yaml.constructor')).toEqual(['python3-yaml', 'python3-pyyaml']);
    expect(pythonModuleCandidates('elftools')[0]).toBe('python3-pyelftools');
    expect(pythonModuleCandidates('PIL')[0]).toBe('python3-pil');
    expect(pythonModuleCandidates('markdown_it')[0]).toBe('python3-markdown-it');
    // python3-<name> missing from the lists, python3-py<name> there
    const t = heuristicContext("ImportError: No module named 'serial'\n");
    t.ctx.installable = offering('python3-pyserial');
    const outcome = await pythonModulePackage.apply(t.ctx, { key: 'serial', reason: '' });
    expect(t.installed).toEqual([['python3-pyserial']]);
    expect(outcome.applied).toBe(true);
  });

  it('says so when no package of the lists provides the module, and leaves imp to its shim', async () => {
    const t = heuristicContext("ModuleNotFoundError: No module named 'projectlocal'\n");
    t.ctx.installable = offering('python3-six');
    const outcome = await pythonModulePackage.apply(t.ctx, { key: 'projectlocal', reason: '' });
    expect(outcome.applied).toBe(false);
    expect(outcome.description).toContain('no Debian package provides the Python module projectlocal');
    expect(t.installed).toEqual([]);
    expect(await pythonModulePackage.match(heuristicContext(fixture('python-imp')).ctx)).toBeNull();
  });

  it('does not install again what the plan has', async () => {
    const t = heuristicContext(fixture('python-module-missing'), {
      plan: { ...heuristicContext('').ctx.plan, packages: ['python3-six'] },
    });
    t.ctx.installable = offering('python3-six');
    const outcome = await pythonModulePackage.apply(t.ctx, { key: 'six', reason: '' });
    expect(outcome.applied).toBe(false);
    expect(t.installed).toEqual([]);
  });
});
