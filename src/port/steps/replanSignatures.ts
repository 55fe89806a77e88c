/**
 * Errors that mean the plan itself is wrong, not the code: each sends the run back to the scout
 * for a new plan, once per signature.
 */
export const REPLAN_SIGNATURES: ReadonlyArray<{ id: string; pattern: RegExp }> = [
  { id: 'apt-unknown-package', pattern: /unable to locate package|has no installation candidate/i },
  {
    id: 'configure-missing',
    pattern: /\.\/configure: (no such file or directory|not found)|can't open '?\.?\/?configure/i,
  },
  { id: 'makefile-missing', pattern: /no targets specified and no makefile found|no makefile found/i },
  { id: 'cmakelists-missing', pattern: /does not appear to contain CMakeLists\.txt/i },
  {
    id: 'meson-build-missing',
    pattern: /contains? a build file meson\.build|meson\.build.*not found/i,
  },
  {
    id: 'manifest-missing',
    pattern: /go\.mod file not found|could not find `?Cargo\.toml`?|cannot find main module/i,
  },
];

export function replanSignatureOf(message: string): string | null {
  return REPLAN_SIGNATURES.find((s) => s.pattern.test(message))?.id ?? null;
}
