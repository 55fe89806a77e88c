import { isConfinedPathError, readFileConfined, walkConfined } from '../../fs/index.ts';
import { hasArMagic, readArArchive } from '../../verify/index.ts';

export interface RustTargetComparison {
  identical: boolean;
  /** Files compared (bookkeeping left out). */
  files: number;
  /** Crate metadata (`.rmeta`, an rlib's `lib.rmeta`) that differed: reported, not counted. */
  metadataDiffering: string[];
  /** `path: what`, every difference that counts. */
  differences: string[];
}

/** Cargo's and rustc's own bookkeeping: hashes of the build's inputs, incremental caches. */
const BOOKKEEPING = /(^|\/)(\.fingerprint|incremental)\//;
/** The most a compared file may be; a larger one counts as a difference rather than being skipped. */
const MAX_BYTES = 1024 * 1024 * 1024;

/**
 * Compares the target folders (`target/<riscv64 triple>`) of an emulated and an accelerated Cargo
 * build, the proof that the x86_64 cargo, rustc, build scripts and proc-macros changed nothing.
 * Everything counts byte for byte (programs, shared objects, build scripts' outputs, dep-info),
 * rlibs member by member, except crate metadata: rustc's `.rmeta` encoding was seen to differ in a
 * few bytes between an x86_64 and a riscv64 rustc while every object and the linked program
 * were identical, so metadata differences are listed apart and do not make the builds differ.
 * A file in one tree only is a difference. Both trees were written by builds: walked without
 * following links, every file read inside its tree.
 */
export function compareRustTargets(emulated: string, accelerated: string): RustTargetComparison {
  const list = (root: string) => {
    try {
      return walkConfined(root, { head: 0 })
        .entries.filter((e) => e.type === 'file' && !BOOKKEEPING.test(e.path))
        .map((e) => e.path);
    } catch (error) {
      if (isConfinedPathError(error) && error.code === 'not-found') return [];
      throw error;
    }
  };
  const a = new Set(list(emulated));
  const b = new Set(list(accelerated));
  const differences: string[] = [];
  const metadataDiffering: string[] = [];
  for (const path of [...a].filter((p) => !b.has(p))) differences.push(`${path}: only in the emulated build`);
  for (const path of [...b].filter((p) => !a.has(p)))
    differences.push(`${path}: only in the accelerated build`);
  let files = 0;
  for (const path of [...a].filter((p) => b.has(p)).sort()) {
    files += 1;
    const x = readFileConfined(emulated, path, { maxBytes: MAX_BYTES });
    const y = readFileConfined(accelerated, path, { maxBytes: MAX_BYTES });
    if (x.equals(y)) continue;
    if (path.endsWith('.rmeta')) {
      metadataDiffering.push(path);
      continue;
    }
    if (path.endsWith('.rlib') && hasArMagic(x) && hasArMagic(y)) {
      const members = rlibDifferences(x, y);
      if (members.metadata) metadataDiffering.push(path);
      differences.push(...members.others.map((m) => `${path}: member ${m} differs`));
      continue;
    }
    differences.push(`${path}: bytes differ`);
  }
  return { identical: differences.length === 0, files, metadataDiffering, differences };
}

function rlibDifferences(x: Uint8Array, y: Uint8Array): { metadata: boolean; others: string[] } {
  const ax = readArArchive(x);
  const ay = readArArchive(y);
  if (ax.error || ay.error) return { metadata: false, others: [`(unreadable: ${ax.error ?? ay.error})`] };
  const byName = (members: typeof ax.members) => new Map(members.map((m) => [m.name, m.data]));
  const mx = byName(ax.members);
  const my = byName(ay.members);
  let metadata = false;
  const others: string[] = [];
  for (const name of new Set([...mx.keys(), ...my.keys()])) {
    const dx = mx.get(name);
    const dy = my.get(name);
    if (dx && dy && Buffer.from(dx).equals(Buffer.from(dy))) continue;
    if (name === 'lib.rmeta' && dx && dy) metadata = true;
    else others.push(name);
  }
  return { metadata, others };
}
