import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Analysis, analyzeTree, type BuildSystemType, type Finding } from '../../src/analysis/index.ts';
import { corpusCache, corpusList, ensureCorpus } from '../helpers/corpus.ts';

// Issue 4, done-when 1: on every package of the public corpus the chosen build system and the
// hazards match the notes of the list. The corpus is fetched here (once, into a cache outside
// the repository) with the list's own fetch script.
const listFile = corpusList;
const cacheDir = corpusCache;

interface Entry {
  name: string;
  note: string;
}

function readList(): Entry[] {
  return readFileSync(listFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))
    .map((l) => {
      const [name = '', ...note] = l.split('#');
      return { name: name.trim(), note: note.join('#').trim() };
    });
}

/** The build system and folder the note names first ("autoconf 2.13 in gnu/ subdir", "Makefile in build64/"). */
function expectedBuild(note: string): { type: BuildSystemType; dir: string; configureShipped?: boolean } {
  const first = note.split(';')[0] ?? '';
  const dir = /\bin (\S+)\/( subdir)?/.exec(first)?.[1] ?? '.';
  const rules: [RegExp, BuildSystemType][] = [
    [/^(autotools|autoconf)\b/i, 'autotools'],
    [/^hand-written configure/i, 'configure'],
    [/^(plain )?Makefile\b/i, 'make'],
    [/^CMake\b/i, 'cmake'],
    [/^Meson\b/i, 'meson'],
    [/^Go modules\b/i, 'go'],
    [/^Cargo\b/i, 'cargo'],
    [/^SCons\b/i, 'scons'],
    [/^waf\b/i, 'waf'],
    [/^Python\b/i, 'python'],
  ];
  const type = rules.find(([pattern]) => pattern.test(first))?.[1];
  if (!type) throw new Error(`the note names no build system rvport knows: ${note}`);
  const configureShipped = /configure shipped/.test(first)
    ? true
    : /without configure/.test(first)
      ? false
      : undefined;
  return { type, dir, ...(configureShipped === undefined ? {} : { configureShipped }) };
}

/**
 * The hazards each note describes, as the findings they must produce. `none-high`: the note
 * names no blocker ("control", "guarded", "with fallback", "riscv present").
 */
const HAZARDS: Record<string, { kinds?: (string | string[])[]; highKinds?: string[]; noHigh?: boolean }> = {
  hello: { highKinds: ['config-guess'] },
  sl: { noHigh: true },
  cjson: { noHigh: true },
  libinih: { noHigh: true },
  libyaml: { noHigh: true },
  lzo2: { kinds: ['asm-file'], noHigh: true },
  libmad: { kinds: ['inline-asm'], highKinds: ['config-guess', 'obsolete-compiler-flag'] },
  xxhash: { kinds: ['simd-intrinsics'], noHigh: true },
  libdeflate: { kinds: ['simd-intrinsics'], noHigh: true },
  libzstd: { kinds: ['asm-file'], noHigh: true },
  libsodium: { kinds: ['simd-intrinsics', 'asm-file'], noHigh: true },
  luajit: { highKinds: ['arch-error'] },
  'memtest86+': { kinds: ['asm-file', 'inline-asm'], highKinds: ['bare-metal'] },
  tcc: {},
  'golang-toml': { noHigh: true },
  'rust-fnv': { noHigh: true },
  serf: { noHigh: true },
  jackd2: { kinds: ['simd-intrinsics', ['arch-macros', 'arch-list'], 'subword-atomics'] },
  cmatrix: { noHigh: true },
  pcre2: { noHigh: true },
  libffi: { kinds: ['asm-file'], noHigh: true },
  lame: { kinds: [['simd-intrinsics', 'asm-file', 'x86-compiler-flag']], highKinds: ['config-guess'] },
  arj: { kinds: ['asm-file'], highKinds: ['config-guess'] },
  ck: { kinds: ['inline-asm'], noHigh: true },
  libtheora: { kinds: [['asm-file', 'inline-asm']], highKinds: ['config-guess'] },
};

const entries = readList();
const analyses = new Map<string, Analysis>();

beforeAll(async () => {
  await ensureCorpus(entries.map((e) => e.name));
  for (const e of entries)
    analyses.set(e.name, analyzeTree(join(cacheDir, e.name), { name: e.name, contents: null }));
}, 30 * 60_000);

describe('the public corpus', () => {
  it('has a hazard expectation for every package of the list', () => {
    expect(entries.length).toBeGreaterThanOrEqual(25);
    for (const e of entries) expect(HAZARDS, `add ${e.name} to HAZARDS`).toHaveProperty([e.name]);
  });

  describe.each(entries)('$name ($note)', ({ name, note }) => {
    it('chooses the build system of the note', () => {
      const analysis = analyses.get(name) as Analysis;
      const want = expectedBuild(note);
      expect({ type: analysis.buildSystem.type, dir: analysis.buildSystem.dir }).toEqual({
        type: want.type,
        dir: want.dir,
      });
      if (want.configureShipped !== undefined)
        expect(analysis.buildSystem.details.configureShipped).toBe(want.configureShipped);
      // every other system the note names is among the candidates ("+ CMake", "(+SConstruct)")
      const also = note.split(';')[0] ?? '';
      if (/\+\s*CMake|\+cmake/i.test(also))
        expect(analysis.buildSystems.map((c) => c.type)).toContain('cmake');
      if (/SConstruct/.test(also)) expect(analysis.buildSystems.map((c) => c.type)).toContain('scons');
      if (/Makefile/.test(also) && want.type === 'configure')
        expect(analysis.buildSystem.evidence.join()).toMatch(/Makefile/);
    });

    it('reports the hazards of the note', () => {
      const analysis = analyses.get(name) as Analysis;
      const expected = HAZARDS[name] ?? {};
      const kinds = new Set(analysis.findings.map((f) => f.kind));
      const high = analysis.findings.filter((f) => f.severity === 'high');
      for (const kind of expected.kinds ?? []) {
        const options = Array.isArray(kind) ? kind : [kind];
        expect(
          options.some((k) => kinds.has(k)),
          `one of ${options.join('/')} in ${[...kinds].join(', ')}`,
        ).toBe(true);
      }
      for (const kind of expected.highKinds ?? []) {
        expect(
          high.map((f) => f.kind),
          `a high ${kind} finding`,
        ).toContain(kind);
      }
      if (expected.noHigh) expect(high.map(describeFinding)).toEqual([]);
      for (const f of analysis.findings) {
        expect(f.file).not.toMatch(/^\//);
        expect(f.snippet.length).toBeGreaterThan(0);
        expect(f.suggestion.length).toBeGreaterThan(0);
      }
    });

    it('reads config.guess as the note says', () => {
      const helpers = (analyses.get(name) as Analysis).autotoolsHelpers.filter(
        (h) => h.kind === 'config.guess',
      );
      if (/config\.guess[^;]*knows riscv/.test(note)) {
        expect(helpers.length).toBeGreaterThan(0);
        expect(helpers.every((h) => h.knowsRiscv64)).toBe(true);
      } else if (/config\.guess/.test(note)) {
        expect(helpers.some((h) => !h.knowsRiscv64)).toBe(true);
      }
    });
  });
});

function describeFinding(f: Finding): string {
  return `${f.kind} ${f.file}:${f.line} ${f.snippet}`;
}
