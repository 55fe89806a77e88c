import type { BuildPlan } from '../state/PortState.ts';

/** riscv64-only compiler switches that an x86_64 gcc rejects. */
const RISCV_FLAGS =
  /(^|\s+)(-mcmodel=medany|-mno-relax|-mrelax|-march=rv64[A-Za-z0-9_]*|-mabi=lp64d?|-mtune=[\w.-]+)(?=[\s"']|$)/g;

function neutral(text: string): string {
  return (
    text
      .replace(RISCV_FLAGS, '')
      // the GNU triplet and Rust's, which carries the ISA (`riscv64gc-unknown-linux-gnu`)
      .replace(/riscv64(?:gc)?-(unknown-)?linux-gnu/g, (_m, unknown) => `x86_64-${unknown ?? ''}linux-gnu`)
      .replace(/[ \t]{2,}/g, ' ')
  );
}

/**
 * The port's plan for the x86_64 side: the same phases, commands, environment and packages, with
 * the architecture-specific bits made neutral (riscv64 compiler switches dropped, the riscv64
 * triplet named as x86_64's), so the difference left is the architecture.
 */
export function x86Plan(plan: BuildPlan): BuildPlan {
  return {
    ...plan,
    phases: plan.phases.map((p) => ({ ...p, commands: p.commands.map(neutral) })),
    ...(plan.env
      ? { env: Object.fromEntries(Object.entries(plan.env).map(([k, v]) => [k, neutral(v).trim()])) }
      : {}),
    packages: plan.packages.map((p) => p.replace(/-riscv64-linux-gnu$/, '-x86-64-linux-gnu')),
  };
}
