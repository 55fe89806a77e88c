import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portState } from '../testing/portStateFixture.ts';
import { type FewShotExample, fewShotPath, toFewShotExample } from './fewShotExample.ts';
import { errorTokens, findFewShotExamples } from './findFewShotExamples.ts';

const example = (over: Partial<FewShotExample> & { package: string }): FewShotExample => ({
  imageId: 'img-a',
  buildSystem: 'autotools',
  plan: null,
  errors: [],
  repairs: [],
  llmFixes: [],
  patches: [],
  ...over,
});

describe('findFewShotExamples', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'rvport-fewshot-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const save = async (e: FewShotExample | Record<string, unknown>, system: string, name: string) => {
    const file = fewShotPath(home, system, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(e));
  };

  it('finds nothing in an empty or missing folder', async () => {
    expect(await findFewShotExamples(home, { imageId: 'img-a', buildSystem: 'cmake' })).toEqual([]);
  });

  it('ranks the same image first, then the same build system, then shared error words', async () => {
    const atomics = {
      category: 'LINKING',
      signature: 'LINKING: undefined reference to `__atomic_fetch_add_N`',
      evidence: 'undefined reference to `__atomic_fetch_add_1`',
    };
    await save(
      example({ package: 'zz-same-image-cmake', buildSystem: 'cmake' }),
      'cmake',
      'zz-same-image-cmake',
    );
    await save(example({ package: 'aa-same-image-auto' }), 'autotools', 'aa-same-image-auto');
    await save(
      example({ package: 'mm-same-image-auto-atomics', errors: [atomics] }),
      'autotools',
      'mm-same-image-auto-atomics',
    );
    await save(
      example({ package: 'other-image-auto-atomics', imageId: 'img-b', errors: [atomics] }),
      'autotools',
      'other-image-auto-atomics',
    );
    await save(
      example({
        package: 'other-image-meson-atomics',
        imageId: 'img-b',
        buildSystem: 'meson',
        errors: [atomics],
      }),
      'meson',
      'other-image-meson-atomics',
    );
    await save(
      example({ package: 'other-image-meson-unrelated', imageId: 'img-b', buildSystem: 'meson' }),
      'meson',
      'other-image-meson-unrelated',
    );
    const found = await findFewShotExamples(home, {
      imageId: 'img-a',
      buildSystem: 'autotools',
      errorText:
        "/usr/bin/ld: foo.o: in function `inc':\nfoo.c:(.text+0x1c): undefined reference to `__atomic_fetch_add_1'",
      limit: 10,
    });
    expect(found.map((e) => e.package)).toEqual([
      'mm-same-image-auto-atomics', // same image, same system, shared words
      'aa-same-image-auto', // same image, same system
      'other-image-auto-atomics', // same system, shared words
      'other-image-meson-atomics', // shared words only
    ]);
    // an example sharing neither the build system nor an error word is left out;
    // the same image alone (cmake, no shared words) is not relevance either
  });

  it('honours the limit and defaults to three', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await save(example({ package: name }), 'autotools', name);
    expect(await findFewShotExamples(home, { imageId: 'img-a', buildSystem: 'autotools' })).toHaveLength(3);
    const two = await findFewShotExamples(home, { imageId: 'img-a', buildSystem: 'autotools', limit: 2 });
    expect(two.map((e) => e.package)).toEqual(['a', 'b']);
  });

  it('gives a bonus to examples that met the error category of the query', async () => {
    const missingHeader = {
      category: 'DEPENDENCY',
      signature: 'DEPENDENCY: fatal error: zlib.h: no such file or directory',
    };
    const otherWords = { category: 'COMPILATION', signature: 'COMPILATION: zlib.h: bad things in zlib' };
    await save(
      example({ package: 'b-dependency', imageId: 'x', buildSystem: 'x', errors: [missingHeader] }),
      'x',
      'b',
    );
    await save(
      example({ package: 'a-compilation', imageId: 'x', buildSystem: 'x', errors: [otherWords] }),
      'x',
      'a',
    );
    const found = await findFewShotExamples(home, {
      imageId: 'img-a',
      buildSystem: 'cmake',
      errorText: 'src/gz.c:3:10: fatal error: zlib.h: No such file or directory',
    });
    expect(found.map((e) => e.package)).toEqual(['b-dependency', 'a-compilation']);
  });

  it('reads examples saved by older versions and skips broken files', async () => {
    await save(
      {
        package: 'old',
        imageId: 'img-a',
        buildSystem: 'make',
        plan: {
          buildSystem: 'make',
          dir: '.',
          phases: [{ name: 'build', commands: ['make'] }],
          packages: [],
        },
        errors: [{ category: 'DEPENDENCY', signature: 'x' }],
        repairs: [{ source: 'heuristic', name: 'install-missing-package', description: 'd', commands: [] }],
      },
      'make',
      'old',
    );
    await mkdir(join(home, 'fewshot', 'make'), { recursive: true });
    await writeFile(join(home, 'fewshot', 'make', 'broken.json'), '{ not json');
    await writeFile(join(home, 'fewshot', 'make', 'wrong.json'), JSON.stringify({ nope: 1 }));
    const found = await findFewShotExamples(home, { imageId: 'img-a', buildSystem: 'make' });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ package: 'old', patches: [], llmFixes: [] });
  });

  it('toFewShotExample keeps the plan, the last errors, applied repairs, every LLM fix and the patches', () => {
    const state = portState({
      plan: {
        buildSystem: 'cmake',
        dir: '.',
        phases: [{ name: 'build', commands: ['make'] }],
        packages: [],
        expectedArtifacts: [],
        origin: 'default',
      },
      errors: Array.from({ length: 7 }, (_, i) => ({
        at: '',
        node: 'build',
        category: 'COMPILATION' as const,
        severity: 'high' as const,
        message: `e${i}`,
        signature: `sig ${i}`,
      })),
      fixAttempts: [
        { at: '', attempt: 1, source: 'heuristic', name: 'h', description: 'heur', outcome: 'applied' },
        {
          at: '',
          attempt: 2,
          source: 'llm',
          name: 'f',
          description: 'bad fix',
          commands: ['x'],
          outcome: 'rolled-back',
        },
        {
          at: '',
          attempt: 3,
          source: 'llm',
          name: 'g',
          description: 'good fix',
          patch: 'diff',
          outcome: 'applied',
        },
      ],
      patches: [{ name: '0001-fix.patch', diff: 'diff --git a/x b/x\n' }],
    });
    const saved = toFewShotExample(state, 'img-a');
    expect(saved.errors.map((e) => e.signature)).toEqual(['sig 2', 'sig 3', 'sig 4', 'sig 5', 'sig 6']);
    expect(saved.repairs.map((r) => r.name)).toEqual(['h', 'g']);
    expect(saved.llmFixes).toEqual([
      { description: 'bad fix', commands: ['x'], outcome: 'rolled-back' },
      { description: 'good fix', commands: [], patch: 'diff', outcome: 'applied' },
    ]);
    expect(saved.patches).toEqual(state.patches);
    expect(saved).toMatchObject({ package: 'zlib', imageId: 'img-a', buildSystem: 'cmake' });
  });
});

describe('errorTokens', () => {
  it('keeps the words that tell errors apart', () => {
    expect([...errorTokens('foo.c:12: fatal error: zlib.h: No such file or directory (1.2.3)')]).toEqual([
      'foo.c',
      'zlib.h',
      'such',
      'directory',
    ]);
  });
});
