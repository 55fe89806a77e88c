import type { DebianKnowledge } from '../state/PortState.ts';
import { table } from './markdown.ts';

/** The report's section on what the port took from Debian's packaging (none without it). */
export function renderDebianKnowledge(debian: DebianKnowledge | null | undefined): string[] {
  if (!debian) return [];
  const out = ['', "## Debian's packaging", ''];
  const problems = debian.problems ?? [];
  for (const problem of problems) out.push(`- ${problem}`);
  if (problems.length) out.push('');
  const tried = debian.installed.length + debian.leftOut.length;
  const from = debian.hint
    ? `the archive's Sources index for ${debian.hint.package} ${debian.hint.version}, matched by ${debian.hint.via}`
    : 'debian/control';
  out.push(
    `Build-Depends (${from}, for riscv64, packaging and documentation tools left out): ${debian.buildDepends.length} relations; ` +
      (tried === 0
        ? 'none installed (no build ran, or the plan had them all).'
        : `${debian.installed.length} installed before the build, ${debian.leftOut.length} left out.`),
  );
  if (debian.installed.length) out.push('', `Installed: ${debian.installed.join(', ')}`);
  if (debian.leftOut.length) {
    out.push('');
    out.push(
      table(
        ['left out', 'why'],
        debian.leftOut.map((l) => [l.name, l.reason]),
      ),
    );
  }
  const applied = debian.patchesApplied.length;
  const skipped = debian.patchesSkipped.length;
  out.push('');
  out.push(
    `Patches (debian/patches/series): ${applied} applied (the \`patches/NNNN-debian-…\` files), ${skipped} skipped.`,
  );
  if (applied) out.push('', `Applied: ${debian.patchesApplied.join(', ')}`);
  const regenerate = debian.regenerate ?? [];
  if (regenerate.length)
    out.push(
      '',
      `${regenerate.map((r) => r.name).join(', ')} change${regenerate.length === 1 ? 's' : ''} autotools inputs: the build regenerates them with \`autoreconf -fi\`, as Debian's dh_autoreconf does.`,
    );
  const steps = debian.rulesSteps ?? [];
  if (steps.length)
    out.push(
      '',
      `debian/rules builds with steps of its own, which the port's plan does not take: ${steps.map((s) => `\`${s}\``).join(', ')}.`,
    );
  if (skipped) {
    out.push('');
    out.push(
      table(
        ['skipped', 'why'],
        debian.patchesSkipped.map((s) => [s.name, s.reason.split('\n')[0]?.slice(0, 160)]),
      ),
    );
  }
  return out;
}
