import { describe, expect, it } from 'vitest';
import { renderRecipe } from '../outputs/renderRecipe.ts';
import type { ExecutedCommand, PortState } from '../state/PortState.ts';
import { fakeLlmClient } from '../testing/fakeLlmClient.ts';
import { portState } from '../testing/portStateFixture.ts';
import { missingRecipeLines, requiredRecipeLines } from './requiredRecipeLines.ts';
import { summarizeRecipe } from './summarizeRecipe.ts';

const run = (
  phase: string,
  command: string,
  exitCode = 0,
  attempt = 2,
  origin: ExecutedCommand['origin'] = 'plan',
) => ({
  phase,
  command,
  exitCode,
  durationMs: 10,
  attempt,
  origin,
});

const state: PortState = portState({
  plan: {
    buildSystem: 'autotools',
    dir: '.',
    phases: [
      { name: 'prepare', commands: ['cp /usr/share/misc/config.guess "$RVPORT_SRC/config.guess"'] },
      { name: 'configure', commands: ['./configure --prefix=/usr'] },
      { name: 'build', commands: ['make -j"$(nproc)"'] },
    ],
    packages: ['zlib1g-dev'],
    env: { LIBS: '-latomic' },
    expectedArtifacts: [],
    origin: 'default',
  },
  executed: [
    run('configure', './configure --prefix=/usr', 0, 1),
    run('build', 'make -j"$(nproc)"', 2, 1),
    run('prepare', 'cp /usr/share/misc/config.guess "$RVPORT_SRC/config.guess"', 0, 1, 'heuristic'),
    run('configure', './configure --prefix=/usr'),
    run('build', 'make -j"$(nproc)"'),
  ],
  patches: [{ name: '0001-char.patch', diff: '--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-char c;\n+int c;\n' }],
  verification: { verdict: 'verified', reason: '2 riscv64 ELF objects, none for another machine' },
  tests: { ran: true, passed: 10, failed: 0, exitCode: 0, summary: 'ok' },
});
const deterministic = renderRecipe(state, { imageId: 'img-a', suite: 'trixie' });

const goodRecipe = (required: string[]) =>
  [
    '# zlib on riscv64',
    '',
    required[0],
    '',
    '## Prerequisites',
    '```sh',
    required[1],
    '```',
    '## Build',
    '```sh',
    ...required.slice(2),
    '```',
    'Patch 0001-char.patch makes `c` an int: plain char is unsigned on riscv64.',
  ].join('\n');

describe('requiredRecipeLines', () => {
  it('are the verdict, the complete install line, the environment and the commands as build.sh runs them', () => {
    expect(requiredRecipeLines(state)).toEqual([
      'Verified: the build produced riscv64 ELF output (2 riscv64 ELF objects, none for another machine).',
      'apt-get install -y --no-install-recommends autoconf automake autopoint autotools-dev build-essential file libtool patch pkg-config zlib1g-dev',
      'export LIBS=-latomic',
      'cp /usr/share/misc/config.guess "$SRC_DIR/config.guess"',
      './configure --prefix=/usr',
      'make -j"$(nproc)"',
    ]);
    for (const line of requiredRecipeLines(state)) expect(deterministic).toContain(line);
    expect(missingRecipeLines(deterministic, requiredRecipeLines(state))).toEqual([]);
  });
});

describe('summarizeRecipe (LLM summarizer)', () => {
  it('offline: the deterministic recipe, no call, no note', async () => {
    const llm = fakeLlmClient([], { offline: true });
    expect(await summarizeRecipe(state, deterministic, llm)).toEqual({
      recipe: deterministic,
      llm: state.llm,
      note: null,
    });
    expect(llm.requests).toHaveLength(0);
  });

  it('accepts a recipe that keeps every required line verbatim; usage added', async () => {
    const text = goodRecipe(requiredRecipeLines(state));
    const llm = fakeLlmClient([
      { value: { recipe_markdown: text }, usage: { input: 900, output: 350 }, costUsd: 0.004 },
    ]);
    const result = await summarizeRecipe(state, deterministic, llm);
    expect(result.recipe).toBe(`${text}\n`);
    expect(result.note).toBe('LLM recipe (every command kept verbatim, none added)');
    expect(result.llm).toMatchObject({ calls: 1, inputTokens: 900, outputTokens: 350, costUsd: 0.004 });
    const request = llm.requests[0];
    expect(request).toMatchObject({ role: 'summarizer', schemaName: 'recipe' });
    const content = request?.messages[0]?.content ?? '';
    expect(content).toContain('## Must appear verbatim');
    expect(content).toContain('\nmake -j"$(nproc)"\n```');
    expect(content).toContain('=== patches/0001-char.patch ===');
    expect(content).toContain('package tests: 10 passed, 0 failed');
  });

  it('falls back when a command is changed or left out', async () => {
    const required = requiredRecipeLines(state);
    const altered = goodRecipe(required).replace('make -j"$(nproc)"', 'make -j4');
    const result = await summarizeRecipe(
      state,
      deterministic,
      fakeLlmClient([{ value: { recipe_markdown: altered } }]),
    );
    expect(result.recipe).toBe(deterministic);
    expect(result.note).toBe(
      'deterministic recipe (the LLM recipe leaves out 1 required line: "make -j\\"$(nproc)\\"")',
    );
  });

  it('falls back when a code block adds a command the port never ran', async () => {
    const required = requiredRecipeLines(state);
    const text = goodRecipe(required).replace('```\n## Build', '```\n## Build\n```sh\nmake check\n```');
    const result = await summarizeRecipe(
      state,
      deterministic,
      fakeLlmClient([{ value: { recipe_markdown: text } }]),
    );
    expect(result.recipe).toBe(deterministic);
    expect(result.note).toBe(
      'deterministic recipe (the LLM recipe adds 1 command the port never ran: "make check")',
    );
  });

  it('accepts applying the listed patches, comments and prompts in code blocks', async () => {
    const text = [
      goodRecipe(requiredRecipeLines(state)),
      '~~~sh',
      '# first the patch',
      '$ git apply patches/0001-char.patch',
      '',
      '~~~',
    ].join('\n');
    const result = await summarizeRecipe(
      state,
      deterministic,
      fakeLlmClient([{ value: { recipe_markdown: text } }]),
    );
    expect(result.recipe).toBe(`${text}\n`);
  });

  it('falls back when the verdict is rephrased (a recipe must not claim more than verify proved)', async () => {
    const required = requiredRecipeLines(state);
    const text = goodRecipe(required).replace(required[0] as string, 'Fully working on riscv64!');
    const result = await summarizeRecipe(
      state,
      deterministic,
      fakeLlmClient([{ value: { recipe_markdown: text } }]),
    );
    expect(result.recipe).toBe(deterministic);
  });

  it.each(['invalid', 'error', 'cost_cap'] as const)(
    '%s: the deterministic recipe with the reason',
    async (outcome) => {
      const result = await summarizeRecipe(
        state,
        deterministic,
        fakeLlmClient([{ outcome, usage: { input: 3, output: 1 } }]),
      );
      expect(result.recipe).toBe(deterministic);
      expect(result.note).toMatch(new RegExp(`^deterministic recipe \\(LLM ${outcome}`));
    },
  );
});
