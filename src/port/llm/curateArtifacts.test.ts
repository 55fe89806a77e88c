import { describe, expect, it } from 'vitest';
import type { ArtifactRecord, PortState } from '../state/PortState.ts';
import { fakeLlmClient } from '../testing/fakeLlmClient.ts';
import { portState } from '../testing/portStateFixture.ts';
import { checkArtifactRanking } from './checkArtifactRanking.ts';
import { curateArtifacts } from './curateArtifacts.ts';
import { artifactsForCurator } from './curatorPrompt.ts';

const LD = '/lib/ld-linux-riscv64-lp64d.so.1';
const artifact = (
  path: string,
  type: string,
  role: ArtifactRecord['role'],
  rank: number,
  interpreter: string | null = null,
) => ({
  path,
  machine: 'riscv64',
  bits: 64,
  endian: 'little',
  type,
  abi: 'lp64d',
  interpreter,
  linkage: interpreter ? 'dynamic' : 'static',
  role,
  rank,
});

// The rule ranking: programs, libraries, tests, objects.
const ruleRanked: ArtifactRecord[] = [
  artifact('build/helper', 'shared', 'program', 0, LD),
  artifact('build/foo', 'shared', 'program', 0, LD),
  artifact('build/libfoo.so.1', 'shared', 'shared-library', 1),
  artifact('build/libfoo.a', 'archive', 'static-library', 2),
  artifact('build/foo.o', 'relocatable', 'object', 5),
];
const state: PortState = portState({ artifacts: ruleRanked });
const paths = ruleRanked.map((a) => a.path);

describe('checkArtifactRanking', () => {
  const answer = (entries: [string, ArtifactRecord['role']][]) => ({
    artifacts: entries.map(([path, role]) => ({ path, role })),
  });
  const roles = (list: string[]) =>
    list.map((p) => [p, ruleRanked.find((a) => a.path === p)?.role] as [string, ArtifactRecord['role']]);

  it('applies a permutation: new order, ranks as positions, roles changed where the facts allow', () => {
    const order = ['build/foo', 'build/libfoo.so.1', 'build/helper', 'build/libfoo.a', 'build/foo.o'];
    const entries = roles(order);
    entries[2] = ['build/helper', 'test'];
    const verdict = checkArtifactRanking(ruleRanked, ruleRanked, answer(entries));
    expect(verdict.ok).toBe(true);
    if (!verdict.ok) return;
    expect(verdict.artifacts.map((a) => [a.path, a.role, a.rank])).toEqual([
      ['build/foo', 'program', 0],
      ['build/libfoo.so.1', 'shared-library', 1],
      ['build/helper', 'test', 2],
      ['build/libfoo.a', 'static-library', 3],
      ['build/foo.o', 'object', 4],
    ]);
    // ELF facts are untouched
    expect(verdict.artifacts[0]).toMatchObject({ machine: 'riscv64', interpreter: LD, type: 'shared' });
  });

  it.each([
    ['an invented path', [...paths, 'build/invented'], /build\/invented is not one of the given paths/],
    ['a dropped path', paths.slice(1), /left out: build\/helper/],
    ['a path twice', [...paths, 'build/foo'], /build\/foo is listed twice/],
  ])('refuses %s', (_what, list, why) => {
    const verdict = checkArtifactRanking(ruleRanked, ruleRanked, answer(roles(list)));
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.problems.join('; ')).toMatch(why);
  });

  it.each([
    ['build/libfoo.a', 'program'],
    ['build/foo.o', 'shared-library'],
    ['build/libfoo.so.1', 'static-library'],
    ['build/foo', 'object'],
  ] as const)('refuses a role that does not fit the ELF facts: %s as %s', (path, role) => {
    const entries = roles(paths).map(
      ([p, r]) => [p, p === path ? role : r] as [string, ArtifactRecord['role']],
    );
    const verdict = checkArtifactRanking(ruleRanked, ruleRanked, answer(entries));
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.problems[0]).toContain(`cannot be a ${role}`);
  });

  it('keeps the artifacts the curator was not shown after the curated ones, in rule order', () => {
    const shown = ruleRanked.slice(0, 2);
    const verdict = checkArtifactRanking(
      ruleRanked,
      shown,
      answer([
        ['build/foo', 'program'],
        ['build/helper', 'program'],
      ]),
    );
    expect(verdict.ok && verdict.artifacts.map((a) => a.path)).toEqual([
      'build/foo',
      'build/helper',
      'build/libfoo.so.1',
      'build/libfoo.a',
      'build/foo.o',
    ]);
  });
});

describe('curateArtifacts (LLM curator)', () => {
  const good = {
    artifacts: [
      { path: 'build/foo', role: 'program' },
      { path: 'build/libfoo.so.1', role: 'shared-library' },
      { path: 'build/helper', role: 'program' },
      { path: 'build/libfoo.a', role: 'static-library' },
      { path: 'build/foo.o', role: 'object' },
    ],
  };

  it('offline or without artifacts: the rule ranking, no call', async () => {
    const offline = fakeLlmClient([], { offline: true });
    expect(await curateArtifacts(state, offline)).toEqual({
      artifacts: ruleRanked,
      llm: state.llm,
      note: null,
    });
    const online = fakeLlmClient([{ value: good }]);
    expect((await curateArtifacts({ ...state, artifacts: [] }, online)).note).toBeNull();
    expect(offline.requests.length + online.requests.length).toBe(0);
  });

  it('takes a valid ranking; the request lists every path with its ELF facts; usage added', async () => {
    const llm = fakeLlmClient([{ value: good, usage: { input: 400, output: 120 }, costUsd: 0.001 }]);
    const result = await curateArtifacts(state, llm);
    expect(result.artifacts.map((a) => a.path)).toEqual(good.artifacts.map((a) => a.path));
    expect(result.llm).toMatchObject({ calls: 1, inputTokens: 400, outputTokens: 120, costUsd: 0.001 });
    expect(result.note).toBe('LLM ranking of 5 artifacts; main: build/foo');
    const request = llm.requests[0];
    expect(request).toMatchObject({ role: 'curator', schemaName: 'artifact_ranking' });
    expect(request?.messages[0]?.content).toContain(
      `build/foo | program | shared | riscv64 | 64 | lp64d | dynamic | ${LD}`,
    );
  });

  it('refuses a ranking that drops a path, keeping the rule ranking', async () => {
    const dropped = { artifacts: good.artifacts.slice(0, 4) };
    const result = await curateArtifacts(
      state,
      fakeLlmClient([{ value: dropped, usage: { input: 1, output: 1 } }]),
    );
    expect(result.artifacts).toEqual(ruleRanked);
    expect(result.note).toBe('rule ranking (LLM ranking refused: left out: build/foo.o)');
    expect(result.llm.calls).toBe(1);
  });

  it('refuses an unknown role through the schema', async () => {
    const bad = { artifacts: good.artifacts.map((a) => ({ ...a, role: 'binary' })) };
    const result = await curateArtifacts(state, fakeLlmClient([{ value: bad }]));
    expect(result.artifacts).toEqual(ruleRanked);
    expect(result.note).toMatch(/^rule ranking \(LLM invalid/);
  });

  it('shows the curator only as many artifacts as its budget holds', () => {
    const many = Array.from({ length: 500 }, (_, i) =>
      artifact(`build/obj/file_${i}.o`, 'relocatable', 'object', 5),
    );
    const shown = artifactsForCurator(many);
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.length).toBeLessThan(500);
    expect(shown).toEqual(many.slice(0, shown.length));
  });
});
