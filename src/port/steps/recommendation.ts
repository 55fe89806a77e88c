import {
  cmakeMissing,
  describeSubmodule,
  mesonMissing,
  missingTool,
  parseMissingPackage,
  stemOf,
  submoduleNamedIn,
} from '../../heuristics/index.ts';
import { emptySubmodules } from '../../sources/index.ts';
import { describeApiDrift } from '../diagnosis/describeApiDrift.ts';
import { scriptedOf } from '../graph/nodes/scriptedAnalysis.ts';
import type { ErrorRecord, PortState } from '../state/PortState.ts';

/** What the last error says is missing, in words, and its names for the package lookup. */
interface Missing {
  /** `the header zstd.h`, `the CMake package GIF`, `the program gperf`. */
  what: string;
  names: string[];
}

const KIND_WORDS: Record<string, string> = {
  header: 'the header',
  library: 'the library',
  pkgconfig: 'the pkg-config module',
  command: 'the program',
  'cmake-package': 'the CMake package',
  word: 'the dependency',
};

function missingIn(error: ErrorRecord): Missing | null {
  const text = [error.errorLine, error.evidence, error.message].filter(Boolean).join('\n');
  const direct = parseMissingPackage(text);
  if (direct) return { what: `${KIND_WORDS[direct.kind]} ${direct.name}`, names: [direct.name] };
  const cmake = cmakeMissing(text);
  const first = cmake?.wanted[0];
  if (cmake && first)
    return {
      what: `${KIND_WORDS[first.kind]} ${first.name}`,
      names: cmake.wanted.map((w) => w.name),
    };
  const meson = mesonMissing(text);
  const mesonFirst = meson?.wanted[0];
  if (meson && mesonFirst)
    return { what: `${KIND_WORDS[mesonFirst.kind]} ${mesonFirst.name}`, names: [mesonFirst.name] };
  const tool = missingTool(text);
  if (tool) return { what: `the program ${tool}`, names: [tool] };
  const configure = /^configure: error: .*?\b(lib[\w+.-]*[\w+])\b/m.exec(text);
  if (configure?.[1]) return { what: `the dependency ${configure[1]}`, names: [configure[1]] };
  return null;
}

/** The Debian package the analysis resolved for one of the names, if any. */
function analysisPackage(state: PortState, names: readonly string[]): string | null {
  const stems = new Set(names.map(stemOf));
  const dep = scriptedOf(state)?.dependencies.find(
    (d) => d.debianPackages.length > 0 && stems.has(stemOf(d.name)),
  );
  return dep?.debianPackages[0] ?? null;
}

/** A line of the output for the recommendation, shortened. */
function quote(line: string | undefined): string {
  if (!line) return '';
  const short = line.length > 160 ? `${line.slice(0, 157)}…` : line;
  return `\`${short.replace(/`/g, "'")}\``;
}

/**
 * The packages phase failed: name the package whose installation stopped (dpkg names it) and
 * what the plan asked to install, rather than a missing dependency in general.
 */
function recommendInstall(state: PortState, error: ErrorRecord): string {
  const text = error.message;
  const broken =
    /error processing archive \S*\/([a-z0-9][a-z0-9+.-]+)_[^/\s]+\.deb/.exec(text)?.[1] ??
    /error processing package ([a-z0-9][a-z0-9+.-]+)/.exec(text)?.[1] ??
    /Unable to locate package ([a-z0-9][a-z0-9+.-]+)/.exec(text)?.[1] ??
    /Package '?([a-z0-9][a-z0-9+.-]+)'? has no installation candidate/.exec(text)?.[1];
  const asked = state.plan?.packages ?? [];
  const list = asked.length
    ? ` (the plan asked for ${asked.slice(0, 8).join(', ')}${asked.length > 8 ? ', …' : ''})`
    : '';
  if (broken)
    return `Installing the plan's packages failed in the sandbox at \`${broken}\`${list}: ${quote(error.errorLine ?? error.evidence)}. Leave out the package that pulls it in (or the part of the build that needs it), or install it by hand in a kept sandbox (--keep-sandbox) to see why its installation stops.`;
  return `Installing the plan's packages failed in the sandbox${list}: ${quote(error.errorLine ?? error.evidence) || 'see build.log'}. Check the names against Debian trixie for riscv64 and leave out the one apt cannot install.`;
}

/**
 * For a `debian:` source ported without its debian.tar: Debian builds the package all the same,
 * so its packaging (the patches this port could not have) is what moves the build off the
 * missing part. Empty otherwise.
 */
function debianBuildsWithout(state: PortState): string {
  const hint = state.debian?.hint;
  if (!hint) return '';
  const depends = (state.debian?.buildDepends ?? []).map((alternatives) => alternatives.join(' | '));
  const listed = depends.length
    ? ` (its Build-Depends: ${depends.slice(0, 8).join(', ')}${depends.length > 8 ? ', …' : ''})`
    : '';
  return ` Debian's own build of ${hint.package} ${hint.version} installs nothing that provides it${listed}, so its packaging (whose debian.tar was not on the mirror) changes the build instead, with a patch or a switch: give the source with Debian's packaging (a mirror that has the debian.tar, or the unpacked source package) and port it again.`;
}

function recommendDependency(state: PortState, error: ErrorRecord): string {
  if (error.phase === 'packages') return recommendInstall(state, error);
  const missing = missingIn(error);
  if (!missing) {
    return `The build stopped at ${quote(error.errorLine ?? error.evidence) || 'a missing dependency'}. Find the Debian package that provides what it names and add it to the plan's packages, or turn off the part that needs it.`;
  }
  const tried = state.fixAttempts.filter((f) => f.source === 'heuristic');
  // a repair already installed the package for one of these names ("installed X (provides …)")
  const installed = tried
    .filter((f) => missing.names.some((n) => [` ${n} `, ` ${n})`].some((s) => f.description.includes(s))))
    .map((f) => /^installed (\S+) \(provides/.exec(f.description)?.[1])
    .find(Boolean);
  const inPlan = [...(state.plan?.packages ?? [])];
  const known = analysisPackage(state, missing.names);
  if (installed || (known && inPlan.includes(known))) {
    const pkg = installed ?? known;
    return `The build needs ${missing.what}. \`${pkg}\`, which provides it, was installed and the build still does not find it: check the version the build asks for and where it looks (PKG_CONFIG_PATH, CMAKE_PREFIX_PATH, a --with-NAME=DIR option), or turn off the part that needs it.`;
  }
  if (known)
    return `The build needs ${missing.what}: install \`${known}\` (the analysis found it as a dependency) by adding it to the plan's packages, then run the port again.`;
  const none = tried.some(
    (f) =>
      /^no Debian package provides/.test(f.description) &&
      missing.names.some((n) => f.description.includes(n)),
  );
  if (none) {
    const debian = debianBuildsWithout(state);
    return `The build needs ${missing.what}, and no riscv64 Debian package provides it.${debian} ${debian ? 'Otherwise, build' : 'Build'} it for riscv64 first and point the build at it, or turn off the part that needs it (a configure --without-/--disable- switch, a CMake -D…=OFF option, a meson -D…=disabled option).`;
  }
  return `The build needs ${missing.what}. Find the Debian package that provides it and add it to the plan's packages, or turn off the part that needs it (a configure --without-/--disable- switch, a CMake -D…=OFF option).`;
}

function recommendSource(state: PortState, error: ErrorRecord): string {
  const line = error.errorLine ?? error.message.split('\n')[0] ?? '';
  const absent =
    /required directory (?:\.\/)?(\S+) does not exist/.exec(error.message)?.[1] ??
    /required file '([^']+)\/Makefile\.in' not found/.exec(error.message)?.[1];
  if (absent)
    return `The source has no \`${absent}/\`, which its Makefile.am builds: vendored code that the release (a repacked tarball) or the checkout leaves out. Give the source with that folder, build against the system library it bundles instead (a configure switch, or Debian's packaging of the package), or leave \`${absent}\` out of SUBDIRS and configure.ac in a custom plan if the package can do without it.`;
  if (/HTTP 404|cannot get the Debian source package|Unable to find a source package|not found/i.test(line))
    return `The source \`${state.source.spec}\` is not where it was looked for (${quote(line)}): the archive no longer has that version, or never had that name. Check the name and version against the archive (for a Debian source, the version trixie has now), or give the source as a tarball, a git URL or a local folder.`;
  if (/resolve|network|timed out|fetch failed|connect|ECONN|EAI_AGAIN|apt-get update failed/i.test(line))
    return `The source \`${state.source.spec}\` could not be downloaded (${quote(line)}). Check the network and the mirror (RVPORT_DEBIAN_MIRROR for debian: sources), or give a local copy of the source.`;
  return `The source \`${state.source.spec}\` could not be used (${quote(line)}). Give a folder, a tarball, a git URL or debian:NAME[=VERSION], and run the port again.`;
}

/**
 * A build file written for another version of its build system: meson's `Unknown method "x" in
 * object`, `Unknown function "x"`, `Got unknown keyword arguments "x"`; CMake's `Unknown CMake
 * command "x"`. The sandbox has one version (Debian trixie's); the call names what to change.
 */
function buildSystemApi(text: string): string | null {
  const meson =
    /^(\S+?:\d+):\d+: ERROR: (?:Unknown method "(\w+)" in object|Unknown function "(\w+)"|[\w ]*[Gg]ot unknown keyword arguments? "([\w", ]+)")/m.exec(
      text,
    );
  if (meson) {
    const version = /^(?:The Meson build system\n)?Version: (\d[\w.]*)/m.exec(text)?.[1];
    const name = meson[2] ?? meson[3] ?? meson[4];
    return `\`${meson[1]}\` uses \`${name}\`, which meson${version ? ` ${version}` : ''} (the sandbox's, Debian trixie's) does not have: the meson.build was written for an older or newer meson. Port a version of the package made for this meson, or patch that call (Debian's packaging of the package often carries the patch), then run the port again.`;
  }
  const cmake = /CMake Error at (\S+?:\d+) \(\w+\):\s*\n\s*Unknown CMake command "(\w+)"/.exec(text);
  if (cmake)
    return `\`${cmake[1]}\` calls \`${cmake[2]}\`, which this CMake does not know: a command defined by a module or a submodule the tree lacks, or one of another CMake version. Give the source with that module (or its submodule), or patch the call, then run the port again.`;
  return null;
}

function recommendConfiguration(error: ErrorRecord): string {
  const line = error.errorLine ?? error.evidence;
  if (
    /version/i.test(line ?? '') &&
    /fatal: (No names found, cannot describe anything|No tags can describe|not a git repository)/.test(
      error.message,
    )
  )
    return `The build takes its version from \`git describe\`, which has no tag to describe in this checkout (${quote(line)}). Port a clone with its tags (\`git fetch --tags\`), a release tarball (it carries a version file), or give the build its version: the project's own version variable (a -D…VERSION=… option), a \`.tarball-version\`/\`VERSION\` file, or a tag \`vX.Y.Z\` on the commit.`;
  const api = buildSystemApi(error.message);
  if (api) return api;
  const option = /--(with|enable)-([\w+-]+)/.exec(line ?? '');
  if (option)
    return `configure stopped at ${quote(line)}. If that part is optional, configure with --${option[1] === 'with' ? 'without' : 'disable'}-${option[2]}; otherwise install what it needs and run the port again.`;
  if (line && /^CMake Error/.test(line))
    return `CMake stopped at ${quote(line)}. Fix what it names (a missing package, file or option): set the option with -D… in a custom plan, or turn off the part that needs it.`;
  return `The configuration stopped${line ? ` at ${quote(line)}` : ''}. Fix what it names (a missing option, file or package) in a custom plan or in the source, then run the port again.`;
}

/** What a CMake download (FetchContent, ExternalProject, a download sub-build) fetches, and from where. */
function downloadOf(text: string): { name: string | null; url: string | null } {
  const name =
    /Build step for ([\w.+-]+) failed|download step \([^)]*\) for '([\w.+-]+?)(?:-populate)?'/
      .exec(text)
      ?.slice(1)
      .find(Boolean) ?? null;
  const url =
    /Failed to clone repository: '([^']+)'|Using src='([^']+)'|unable to access '([^']+)'/
      .exec(text)
      ?.slice(1)
      .find(Boolean)
      ?.replace(/\/$/, '') ?? null;
  return { name, url };
}

function recommendNetwork(error: ErrorRecord, line: string): string {
  const { name, url } = downloadOf(error.message);
  if (!name)
    return `The build tries to download during the build${line ? ` (${line})` : ''}. Vendor the dependency into the source, install it from Debian and make the build use it, or turn off the part that downloads.`;
  const upper = name.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  return `The build downloads \`${name}\`${url ? ` from ${url}` : ''}, and builds have no network${line ? ` (${line})` : ''}. Install its Debian package and make the build use it (-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS when its CMake package has that name, -DFETCHCONTENT_SOURCE_DIR_${upper}=DIR for a source tree, or the project's switch for system dependencies), vendor it into the source, or turn off the part that downloads it (its -D…=OFF switch).`;
}

/**
 * The recommendation for an error that names a submodule the checkout has no content of, with
 * its URL and the other empty submodules; null when the error names none.
 */
function recommendSubmodule(state: PortState, error: ErrorRecord): string | null {
  if (!state.source.dir) return null;
  const empty = emptySubmodules(state.source.dir);
  const text = [error.errorLine, error.message].filter(Boolean).join('\n');
  const sub = submoduleNamedIn(text, empty, state.plan?.dir ?? '.');
  if (!sub) return null;
  const others = empty.filter((s) => s !== sub);
  return [
    `The build needs the submodule ${describeSubmodule(sub)}, and this checkout has no content for it${error.errorLine ? ` (${quote(error.errorLine)})` : ''}.`,
    `Port a clone that has its submodules (\`git clone --recurse-submodules\`, or \`git submodule update --init ${sub.path}\` in the source) or a release tarball, which ships them;`,
    'where the package offers one, a switch to use the system copy of that library or to leave its part out (-D…=OFF, --without-…) also gets past it.',
    ...(others.length > 0
      ? [`Other submodules without content: ${others.map(describeSubmodule).join(', ')}.`]
      : []),
  ].join(' ');
}

/** Categories of a build that Debian's own steps may get past; the others have causes of their own. */
const BUILD_CATEGORIES = new Set([
  'DEPENDENCY',
  'MISSING_TOOLS',
  'CONFIGURATION',
  'COMPILATION',
  'LINKING',
  'UNKNOWN',
]);

/**
 * What a person should try next, naming what rvport knows is missing (the package, the program,
 * the option, the file) rather than a generic sentence. For a `debian:` source whose debian/rules
 * builds it with steps of its own, those steps are named too: the default plan did not take them.
 */
export function recommendation(state: PortState): string {
  const base = recommendationFor(state);
  const category = state.errors.at(-1)?.category ?? 'UNKNOWN';
  if (!BUILD_CATEGORIES.has(category)) return base;
  const steps = state.debian?.rulesSteps ?? [];
  if (steps.length)
    return `${base} Debian's own build of the package replaces or extends ${steps.length > 1 ? 'these steps' : 'this step'} in debian/rules: ${steps.map((s) => `\`${s}\``).join(', ')}; a custom plan that follows them may get past this.`;
  const hint = state.debian?.hint;
  if (hint && !base.includes("Debian's own build"))
    return `${base} Debian builds ${hint.package} ${hint.version} from this source with its packaging, whose debian.tar was not on the mirror: its patches and debian/rules may be what this build needs (give the source with Debian's packaging and port it again).`;
  return base;
}

function recommendationFor(state: PortState): string {
  const error = state.errors.at(-1);
  const line = quote(error?.errorLine ?? error?.evidence);
  const submodule = error ? recommendSubmodule(state, error) : null;
  if (submodule) return submodule;
  if (state.apiDrift?.length)
    return describeApiDrift(state.apiDrift, (state.debian?.patchesApplied.length ?? 0) > 0);
  switch (error?.category) {
    case 'ARCHITECTURE_IMPOSSIBLE':
      return `The code has no riscv64 support${line ? ` (${line})` : ''}, for example no backend for the architecture. Porting it means writing that support upstream; a rebuild cannot help.`;
    case 'REQUIRES_HARDWARE':
      return 'The code targets specific hardware (for example bare-metal x86). It cannot run as a riscv64 Linux program.';
    case 'LICENSE_INCOMPATIBLE':
      return 'A licence problem blocks the build; a person must decide.';
    case 'PERMISSION':
      return `The build needs permissions the sandbox does not give${line ? ` (${line})` : ''}; it must not write outside its tree.`;
    case 'DISK_SPACE':
      return 'Free disk space in RVPORT_HOME (or give the instance more room) and run the port again; it resumes.';
    case 'MEMORY_LIMIT':
      return "A build command used more memory than the sandbox allows (a process was killed). If the build really needs more, lower its parallelism in a custom plan (for example `make -j1`) or raise RVPORT_SANDBOX_MEMORY_MB; a build that keeps growing is the package's bug.";
    case 'PROCESS_LIMIT':
      return 'A build command started more processes than the sandbox allows (a fork bomb or a runaway test). Look at the command in build.log; lower its parallelism or turn off the part that spawns them (RVPORT_SANDBOX_PROCESSES raises the limit).';
    case 'OUTPUT_LIMIT':
      return 'A build command wrote more output than the sandbox keeps (a log flood, often a test in an endless loop). The last lines of build.log show which; turn that part off in a custom plan (RVPORT_SANDBOX_OUTPUT_MB raises the limit).';
    case 'NETWORK':
      return recommendNetwork(error, line);
    case 'SOURCE_UNAVAILABLE':
      return recommendSource(state, error);
    case 'DEPENDENCY':
    case 'MISSING_TOOLS':
      return recommendDependency(state, error);
    case 'CONFIGURATION':
      return recommendConfiguration(error);
    case 'LINKING': {
      const symbol = /undefined reference to [`'‘]([^'’`]+)['’`]/.exec(error.errorLine ?? error.message)?.[1];
      if (symbol)
        return `The link needs \`${symbol}\`, which nothing linked defines: add the library that provides it (LIBS or LDFLAGS in the plan's env; -latomic for __atomic_* helpers, -lm for math), or check that the object that defines it is built for this configuration.`;
      break;
    }
    case 'ARCHITECTURE':
      return `The build uses code or flags for another architecture${line ? ` (${line})` : ''}. Turn off the x86-specific option (a SIMD switch such as --disable-sse or -D…_AVX=OFF) or give the code a portable C path.`;
  }
  const fallback = state.options.offline
    ? 'The deterministic repairs are exhausted. Configure an LLM provider (see README) so the fixer can propose a fix, or fix the error by hand and run the port again.'
    : 'The fixer could not repair the error within the attempts. Fix it by hand, then run the port again.';
  return line ? `The build stopped at ${line}. ${fallback}` : fallback;
}
