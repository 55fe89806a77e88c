/**
 * Which variables a build plan may set. A plan comes from the scout (an LLM), a recipe or an
 * imported cache entry, so its environment is an allow-list of build variables, never what
 * changes how a program loads, which shell start-up files run or where the sandbox's own
 * folders are. (The sandbox sets it only on the command inside; this is the second wall.)
 */
const ALLOWED_NAMES = new Set([
  'CC',
  'CXX',
  'CPP',
  'CXXCPP',
  'FC',
  'F77',
  'AR',
  'AS',
  'LD',
  'NM',
  'RANLIB',
  'STRIP',
  'OBJCOPY',
  'OBJDUMP',
  'READELF',
  'WINDRES',
  'YACC',
  'LEX',
  'BISON',
  'FLEX',
  'M4',
  'MAKE',
  'MAKEFLAGS',
  'MFLAGS',
  'LIBS',
  'PKG_CONFIG',
  'PKG_CONFIG_PATH',
  'PKG_CONFIG_LIBDIR',
  // the compiler's include search path (a header a library keeps in a folder of its own)
  'CPATH',
  'C_INCLUDE_PATH',
  'CPLUS_INCLUDE_PATH',
  'ACLOCAL',
  'ACLOCAL_PATH',
  'AUTOCONF',
  'AUTOHEADER',
  'AUTOMAKE',
  'AUTORECONF',
  'LIBTOOL',
  'LIBTOOLIZE',
  'PREFIX',
  'SOURCE_DATE_EPOCH',
  'TZ',
  'LC_ALL',
  'LANG',
  'V',
  'VERBOSE',
  'JOBS',
  'PYTHON',
  'PERL',
  'RUSTFLAGS',
  'RUSTDOCFLAGS',
  'CONFIG_SHELL',
  'SHELL_PATH',
]);

const ALLOWED_PATTERNS: readonly RegExp[] = [
  /^[A-Z][A-Z0-9_]*FLAGS$/, // CFLAGS, CXXFLAGS, LDFLAGS, CPPFLAGS, FCFLAGS, EXTRA_CFLAGS…
  /^[A-Z][A-Z0-9_]*_(CFLAGS|LIBS|CPPFLAGS|LDFLAGS|CONFIG)$/, // pkg-config overrides: ZLIB_LIBS…
  /^(CMAKE|MESON|NINJA|GO|CGO|CARGO|DEB|ac_cv|am|lt_cv)_[A-Za-z0-9_]+$/,
  /^GO[A-Z0-9]+$/, // GOFLAGS, GOARCH, GOCACHE…
];

/** Never, whatever the patterns say: loaders, shells, interpreters and the sandbox's own paths. */
const DENIED: readonly RegExp[] = [
  /^LD_/,
  /^(GCONV_PATH|GLIBC_TUNABLES|LOCPATH|NLSPATH|HOSTALIASES|RES_OPTIONS|LOCALDOMAIN|MALLOC_.*)$/,
  /^(BASH_ENV|ENV|IFS|PS4|SHELLOPTS|BASHOPTS|CDPATH|PATH|HOME|TMPDIR|SHELL)$/,
  /^(PERL5OPT|PERL5LIB|PERLLIB|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|NODE_OPTIONS|RUBYOPT)$/,
  /^(QEMU_|RVPORT_)/,
];

/** Why `name` may not be set by a plan, or undefined when it may. */
export function planEnvProblem(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return `invalid variable name ${JSON.stringify(name)}`;
  if (DENIED.some((re) => re.test(name)))
    return `${name} may not be set by a plan (it changes how programs load or run)`;
  if (ALLOWED_NAMES.has(name) || ALLOWED_PATTERNS.some((re) => re.test(name))) return undefined;
  return `${name} is not a build variable rvport lets a plan set`;
}

/** The plan's environment without what the allow-list refuses, and what was dropped. */
export function allowedPlanEnv(env: Readonly<Record<string, string>> | undefined): {
  env: Record<string, string>;
  dropped: string[];
} {
  const kept: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(env ?? {})) {
    if (planEnvProblem(name) || value.includes('\0')) dropped.push(name);
    else kept[name] = value;
  }
  return { env: kept, dropped };
}
