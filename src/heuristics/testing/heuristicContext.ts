import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dependency } from '../../analysis/index.ts';
import type { BuildPlan } from '../../plan/index.ts';
import type { Sandbox, SandboxRunResult } from '../../sandbox/index.ts';
import type { HeuristicContext, PackageKind } from '../RecoveryHeuristic.ts';

/** Real error output (fixtures/capture.sh, fixtures/capture-host.sh). */
export const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/${name}.txt`, import.meta.url), 'utf8');

export const autotoolsPlan: BuildPlan = {
  buildSystem: 'autotools',
  dir: '.',
  phases: [
    { name: 'configure', commands: ['./configure --prefix=/usr'] },
    { name: 'build', commands: ['make -j"$(nproc)"'] },
  ],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};

/** A plain Makefile's default plan: make, then make install into the staging folder. */
export const makePlan: BuildPlan = {
  buildSystem: 'make',
  dir: '.',
  phases: [
    { name: 'build', commands: ['make -j"$(nproc)"'] },
    { name: 'install', commands: ['make install DESTDIR=/build/dest'] },
  ],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};

const workspaces: string[] = [];

/** Removes the workspaces the contexts made (call in afterEach). */
export function removeWorkspaces(): void {
  for (const dir of workspaces.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface TestContext {
  ctx: HeuristicContext;
  /** The package lists installPackages was called with. */
  installed: string[][];
  /** The lookups findPackage was asked. */
  lookups: string[];
  workspace: string;
  /** Writes a file into the source tree of the sandbox's workspace. */
  src(rel: string, text?: string): string;
}

/**
 * A heuristic context over a real temporary workspace, whose Contents index answers from
 * `providers` (`kind:name` → package) and whose analysis lists `dependencies`.
 */
export function heuristicContext(
  output: string,
  options: {
    providers?: Record<string, string>;
    dependencies?: Dependency[];
    plan?: BuildPlan;
    failure?: Partial<HeuristicContext['failure']>;
    installExitCode?: number;
    /** The sandbox's mode (default emulated). */
    mode?: Sandbox['mode'];
    /** The files of the installed packages, as `dpkg-query -L` and `-S` answer for them. */
    installedFiles?: Record<string, string[]>;
    /** The text of files outside the tree (installed headers), as `grep -qw WORD FILE` finds in them. */
    systemFiles?: Record<string, string>;
  } = {},
): TestContext {
  const workspace = mkdtempSync(join(tmpdir(), 'rvport-heur-'));
  workspaces.push(workspace);
  mkdirSync(join(workspace, 'src'), { recursive: true });
  const installed: string[][] = [];
  const lookups: string[] = [];
  const sandbox = {
    workspace,
    mode: options.mode ?? 'emulated',
    installPackages: async (packages: readonly string[]) => {
      installed.push([...packages]);
      const exitCode = options.installExitCode ?? 0;
      return runResult(exitCode, '', exitCode === 0 ? '' : 'E: Unable to locate package');
    },
    run: async (argv: readonly string[]) =>
      argv[0] === 'grep'
        ? grepWord(argv, options.systemFiles ?? {})
        : dpkgQuery(argv, options.installedFiles ?? {}),
  } as unknown as Sandbox;
  const ctx: HeuristicContext = {
    failure: {
      phase: 'configure',
      command: './configure --prefix=/usr',
      output,
      exitCode: 1,
      timedOut: false,
      ...options.failure,
    },
    plan: options.plan ?? autotoolsPlan,
    source: { spec: '/tmp/demo' },
    patches: [],
    analysis: options.dependencies ? { buildSystems: [], dependencies: options.dependencies } : null,
    sandbox,
    srcDir: '/build/src',
    findPackage: async (kind: PackageKind, name: string) => {
      lookups.push(`${kind}:${name}`);
      return options.providers?.[`${kind}:${name}`] ?? null;
    },
    log: () => {},
  };
  const src = (rel: string, text = '') => {
    const file = join(workspace, 'src', rel);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
    return file;
  };
  return { ctx, installed, lookups, workspace, src };
}

/** What the sandbox's run answers in a test: the exit status and the output. */
function runResult(exitCode: number, stdout = '', stderr = ''): SandboxRunResult {
  return {
    exitCode,
    stdout,
    stderr,
    truncated: false,
    stdoutBytes: 0,
    stderrBytes: 0,
    durationMs: 1,
    timedOut: false,
    aborted: false,
    commandNotFound: false,
  };
}

/** `grep -qw WORD FILE` over the given files. */
function grepWord(argv: readonly string[], files: Record<string, string>): SandboxRunResult {
  const [, option, word = '', file = ''] = argv;
  const text = files[file];
  const found = option === '-qw' && text !== undefined && new RegExp(`\\b${word}\\b`).test(text);
  return runResult(found ? 0 : text === undefined ? 2 : 1);
}

/** `dpkg-query -L PACKAGE` and `dpkg-query -S PATTERN…` over the given installed files. */
function dpkgQuery(argv: readonly string[], files: Record<string, string[]>): SandboxRunResult {
  const answer = (lines: string[]) => runResult(lines.length > 0 ? 0 : 1, lines.join('\n'));
  const [program, option, ...args] = argv;
  if (program !== 'dpkg-query') return answer([]);
  if (option === '-L') return answer(files[args[0] ?? ''] ?? []);
  if (option !== '-S') return answer([]);
  const glob = (pattern: string) =>
    new RegExp(`^${pattern.replace(/[.+?^$(){}|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  const globs = args.map(glob);
  return answer(
    Object.entries(files).flatMap(([pkg, paths]) =>
      paths.filter((p) => globs.some((g) => g.test(p))).map((p) => `${pkg}: ${p}`),
    ),
  );
}

/** An optional dependency the analysis found and resolved (as the extractors record them). */
export function optionalDependency(kind: Dependency['kind'], name: string, pkg: string): Dependency {
  return {
    kind,
    name,
    file: 'configure.ac',
    line: 1,
    required: false,
    debianPackages: [pkg],
    resolvedBy: 'contents',
  };
}
