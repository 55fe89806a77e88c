/** Where the cross compiler's own files appear inside the sandbox, and their native equivalents. */
export const CROSS_PREFIX_MAPS: ReadonlyArray<readonly [string, string]> = [
  ['/native/usr/lib/gcc-cross/riscv64-linux-gnu/14', '/usr/lib/gcc/riscv64-linux-gnu/14'],
  ['/native/usr/riscv64-linux-gnu/include/c++/14', '/usr/include/c++/14'],
  // more specific last: GCC applies the last matching map
  ['/native/usr/riscv64-linux-gnu/include/c++/14/riscv64-linux-gnu', '/usr/include/riscv64-linux-gnu/c++/14'],
];

/** Where GCC reads a `specs` file without being told (its library directory). */
export const CROSS_SPECS_PATH = 'usr/lib/gcc-cross/riscv64-linux-gnu/14/specs';

/**
 * The cross compiler's full specs (`gcc -dumpspecs`) with prefix maps added to every cc1/cc1plus
 * invocation, so `-g` objects name the native compiler's header paths and are byte-identical to
 * the emulated compiler's. The whole dump is kept: a partial specs file breaks C++ linking.
 */
export function crossSpecs(dumpspecs: string, maps = CROSS_PREFIX_MAPS): string {
  const lines = dumpspecs.split('\n');
  const at = lines.indexOf('*cc1_options:');
  if (at < 0 || at + 1 >= lines.length) throw new Error('no *cc1_options entry in the compiler specs');
  const extra = maps.map(([from, to]) => `-ffile-prefix-map=${from}=${to}`).join(' ');
  lines[at + 1] = `${lines[at + 1]} ${extra}`;
  return lines.join('\n');
}

/** Go in the tools tree targets the sandbox; `go env` inside then tells the truth about the target. */
export const GO_ENV_DEFAULTS = 'GOOS=linux\nGOARCH=riscv64\nCGO_ENABLED=1\nGOTOOLCHAIN=local\n';
