// A seeded random draw of Debian source packages nobody here has ported: the method of
// BENCHMARKS.md's draws, as a script. From the archive's Sources index (trixie, main; the
// machine's own mirror), the packages that are not `Architecture: all`, have 3 to 9
// Build-Depends, none of the toolchains the draws leave out (Go, Rust, Python, Java, Qt 6, OCaml,
// Haskell, Pascal, Mono), and are named nowhere in the corpora lists or in BENCHMARKS.md (every
// package an earlier draw, corpus or benchmark ported is named there), sorted by name, shuffled
// with a seeded generator, and the first N printed as `debian:NAME` lines: a list for
// `npx tsx bench/port-times.ts --out DIR LIST`. The same seed on the same index and the same
// BENCHMARKS.md gives the same list (a draw written into BENCHMARKS.md leaves its names out of the
// next, so its list is committed in bench/results/). The index is read as a port reads it
// (DebianSourceIndex). Usage:
//   npx tsx bench/draw-debian.ts --seed N [--count 20] [--mirror URL] > LIST
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type DebianSourceEntry, DebianSourceIndex } from '../src/debian/DebianSourceIndex.ts';
import { DEFAULT_DEBIAN_SUITE, debianMirror } from '../src/debian/debianMirror.ts';
import { sourceStanza } from '../src/debian/parseBuildDepends.ts';
import { PrivateApt } from '../src/sources/index.ts';
import { corpusDir } from '../test/helpers/corpus.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    count: { type: 'string', default: '20' },
    mirror: { type: 'string' },
  },
});
const seed = Number(values.seed);
const count = Number(values.count);
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(count) || count < 1) {
  console.error('usage: npx tsx bench/draw-debian.ts --seed N [--count 20] [--mirror URL]');
  process.exit(2);
}
const mirror = values.mirror ?? debianMirror();
if (!mirror) {
  console.error("no Debian mirror in this machine's apt sources; pass --mirror URL");
  process.exit(2);
}

/** Build-Depends that mark a toolchain the draws leave out. */
const LEFT_OUT =
  /^(golang|dh-golang|gccgo|cargo|rustc|dh-cargo|librust-|python3?(-|$)|dh-python|dh-sequence-python|default-jdk|openjdk|javahelper|maven|ant$|qt6-|qmake6|ocaml|dh-ocaml|ghc|haskell|cabal|fp-compiler|fpc|lazarus|mono-|cli-common-dev|dh-cli)/;

/** The package names of a Build-Depends field (alternatives and profiles kept as names). */
export function dependNames(field: string): string[] {
  return field
    .split(',')
    .map((d) => d.trim().split(/[\s|(<[]/)[0] ?? '')
    .filter(Boolean);
}

/** mulberry32: a small seeded generator, so that a draw can be repeated from its seed. */
function seeded(start: number): () => number {
  let a = start >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The archive's source packages, through the private apt and the index a port reads them with. */
async function sourcePackages(): Promise<readonly DebianSourceEntry[]> {
  const dir = join(process.env.RVPORT_HOME ?? join(homedir(), '.cache', 'rvport'), 'draw-apt');
  const apt = await PrivateApt.create(dir, DEFAULT_DEBIAN_SUITE, mirror as string);
  await apt.ensureLists({ log: (line) => console.error(line) });
  const index = await DebianSourceIndex.load(join(dir, 'state', 'lists'));
  if (!index) throw new Error(`no Sources index in ${join(dir, 'state', 'lists')}`);
  return index.entries;
}

/** Every word of the corpora lists and of BENCHMARKS.md: names seen before. */
function seenBefore(): Set<string> {
  const texts = [readFileSync(resolve(import.meta.dirname, '..', 'BENCHMARKS.md'), 'utf8')];
  for (const list of ['public.txt', 'wide.txt', 'git.txt'])
    texts.push(readFileSync(join(corpusDir, list), 'utf8'));
  return new Set(texts.flatMap((t) => t.match(/[a-z0-9][a-z0-9+.-]*[a-z0-9+]/g) ?? []));
}

const seen = seenBefore();
const candidates = (await sourcePackages())
  .filter((entry) => {
    const arch = (entry.architecture ?? '').split(/\s+/);
    const depends = dependNames(sourceStanza(entry.buildDepends).get('build-depends') ?? '');
    return (
      !seen.has(entry.name) &&
      !arch.every((a) => a === 'all') &&
      depends.length >= 3 &&
      depends.length <= 9 &&
      !depends.some((d) => LEFT_OUT.test(d))
    );
  })
  .map((entry) => entry.name);
const names = [...new Set(candidates)].sort();
const random = seeded(seed);
for (let i = names.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [names[i], names[j]] = [names[j] as string, names[i] as string];
}
console.error(`${names.length} candidates; seed ${seed}; the first ${count}:`);
for (const name of names.slice(0, count)) console.log(`debian:${name}`);
