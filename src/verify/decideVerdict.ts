import type { ElfFacts } from './inspectFile.ts';

export const TARGET_MACHINE = 'riscv64';

export interface Verdict {
  verdict: 'verified' | 'not_verified';
  /** One line a person can act on. */
  reason: string;
  /** Every reason the verdict is negative (empty when verified). */
  reasons: string[];
  /** ELF files and archive members that are riscv64. */
  riscv64: string[];
  /** ELF files and archive members built for another machine. */
  foreign: string[];
}

/** ELF files and archive members, flattened: the units the verdict counts. */
export function objectsOf(files: readonly ElfFacts[]): ElfFacts[] {
  return files.flatMap((f) => (f.kind === 'archive' ? (f.members ?? []) : [f]));
}

export interface VerdictOptions {
  /**
   * The artifacts the build was expected to produce; at least one must be riscv64. When absent,
   * any riscv64 object among `files` will do.
   */
  expected?: readonly string[];
  /** Paths given explicitly by the user: one that is not an object is an error, not a skip. */
  explicit?: ReadonlySet<string>;
}

/**
 * Verified when at least one expected artifact is riscv64 and none of the outputs is another
 * machine's (SPEC section 4). A truncated or damaged object, or an explicitly named file that
 * is not an object at all, also fails the verdict.
 */
export function decideVerdict(files: readonly ElfFacts[], options: VerdictOptions = {}): Verdict {
  const reasons: string[] = [];
  const objects = objectsOf(files);
  const riscv64 = objects.filter((o) => o.kind === 'elf' && o.machine === TARGET_MACHINE).map((o) => o.path);
  const foreignObjects = objects.filter((o) => o.kind === 'elf' && o.machine !== TARGET_MACHINE);
  const foreign = foreignObjects.map((o) => o.path);

  if (foreignObjects.length > 0) {
    const first = foreignObjects[0];
    const more = foreignObjects.length > 1 ? ` (and ${foreignObjects.length - 1} more)` : '';
    reasons.push(`${first?.path} is ${first?.machine} ${first?.bits}-bit, not riscv64${more}`);
  }
  for (const f of files) {
    if (f.kind === 'broken_elf' || f.kind === 'unreadable') reasons.push(`${f.path}: ${f.error}`);
    if (f.kind === 'not_elf' && options.explicit?.has(f.path)) reasons.push(`${f.path}: ${f.error}`);
    if (f.kind === 'archive') {
      const members = f.members ?? [];
      if (f.error) reasons.push(`${f.path}: damaged archive: ${f.error}`);
      if (members.length === 0 && !f.error) reasons.push(`${f.path}: empty archive`);
      // A member that could not be read (a thin archive's file is gone) says nothing about the
      // machine: the archive is judged by the members that were read.
      const unread = members.filter((m) => m.kind === 'unreadable');
      if (unread.length > 0 && unread.length === members.length)
        reasons.push(`${f.path}: none of its ${members.length} members could be read (${unread[0]?.error})`);
      for (const m of members)
        if (m.kind !== 'elf' && m.kind !== 'unreadable') reasons.push(`${m.path}: ${m.error}`);
    }
  }
  if (options.expected) {
    const expected = new Set(options.expected);
    const found = objects.filter((o) => expected.has(o.path) || expected.has(o.path.replace(/\(.*\)$/, '')));
    if (!found.some((o) => o.kind === 'elf' && o.machine === TARGET_MACHINE)) {
      reasons.push(
        options.expected.length === 0
          ? 'no expected artifact was named'
          : `none of the expected artifacts is a riscv64 ELF file (${options.expected.join(', ')})`,
      );
    }
  } else if (riscv64.length === 0) {
    reasons.push(files.length === 0 ? 'no ELF file or ar archive found' : 'no riscv64 ELF file found');
  }

  if (reasons.length === 0) {
    const unread = files
      .flatMap((f) => (f.kind === 'archive' ? (f.members ?? []) : []))
      .filter((m) => m.kind === 'unreadable').length;
    return {
      verdict: 'verified',
      reason: `${riscv64.length} riscv64 ELF object${riscv64.length === 1 ? '' : 's'}, none for another machine${unread ? ` (${unread} archive member${unread === 1 ? '' : 's'} could not be read)` : ''}`,
      reasons,
      riscv64,
      foreign,
    };
  }
  return { verdict: 'not_verified', reason: reasons[0] ?? 'not verified', reasons, riscv64, foreign };
}
