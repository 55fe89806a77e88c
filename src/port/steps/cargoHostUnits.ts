import { RUST_TARGET } from '../../sandbox/index.ts';

/** Where cargo puts host units under `target/<profile>/`: build scripts, proc-macros, their dependencies. */
const HOST_UNIT_DIR = /^[^/]+\/(build|deps)\//;

/**
 * The build outputs that are Cargo's host units, not artifacts: with an explicit `--target`
 * (the plan's CARGO_BUILD_TARGET), everything built for the target lies under
 * `target/<triple>/`, and `target/<profile>/` holds only what cargo built to run during the
 * build (build scripts, proc-macros and their dependencies, in its `build/` and `deps/`). In
 * accelerated mode those are x86_64 programs by design. Only those two folders: a program a build
 * left in `target/release/` itself is still judged. Only a `target` folder with a riscv64 sibling
 * counts, so a build without `--target` keeps all its outputs.
 */
export function cargoHostUnits(paths: readonly string[], triple = RUST_TARGET): Set<string> {
  const targetRoot = new RegExp(`^(.*?(?:^|/))target/${escapeRegExp(triple)}/`);
  const roots = new Set<string>();
  for (const path of paths) {
    const match = targetRoot.exec(path);
    if (match) roots.add(match[1] ?? '');
  }
  const host = new Set<string>();
  for (const path of paths) {
    for (const root of roots) {
      const rest = path.startsWith(`${root}target/`) ? path.slice(root.length + 'target/'.length) : null;
      if (rest !== null && !rest.startsWith(`${triple}/`) && HOST_UNIT_DIR.test(rest)) host.add(path);
    }
  }
  return host;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
