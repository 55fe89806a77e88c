import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (env: the whole environment, the test's own by default; NODE_OPTIONS is cleared). */
export function run(
  command: string,
  args: string[],
  cwd: string,
  options: { timeout?: number; env?: NodeJS.ProcessEnv } = {},
): Run {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: options.timeout ?? 240_000,
    maxBuffer: 64 << 20,
    env: { ...(options.env ?? process.env), NODE_OPTIONS: '' },
  });
  return {
    code: result.status,
    stdout: result.stdout ?? '',
    stderr: `${result.stderr ?? ''}${result.error ?? ''}`,
  };
}

/**
 * `npm pack` of the project as a release makes it (the prepack script builds dist/), from a copy
 * of the files git has, so the checkout's own dist/ is left alone. Returns the tarball's path and
 * its file list (paths inside the package).
 */
export function packProject(work: string): { tarball: string; files: string[] } {
  const project = join(work, 'project');
  mkdirSync(project);
  for (const entry of [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'README.md',
    'LICENSE',
    'bin',
    'src',
    'web',
  ]) {
    if (existsSync(join(PROJECT_ROOT, entry)))
      cpSync(join(PROJECT_ROOT, entry), join(project, entry), { recursive: true });
  }
  symlinkSync(realpathSync(join(PROJECT_ROOT, 'node_modules')), join(project, 'node_modules'));
  const pack = run('npm', ['pack', '--json', '--pack-destination', work], project);
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as {
    filename: string;
    files: { path: string }[];
  }[];
  const [first] = packed;
  if (!first) throw new Error(`npm pack printed no package: ${pack.stdout}`);
  return { tarball: join(work, first.filename), files: first.files.map((f) => f.path) };
}

/**
 * The files the shipped code opens beside itself at run time (`new URL('./x', import.meta.url)`,
 * a loader registered by a relative name), as paths inside the package: a file under src/ is
 * looked for under dist/. TypeScript modules are left out (tsc emits them); tests and their
 * helpers are too.
 */
export function runtimeAssets(): string[] {
  const src = join(PROJECT_ROOT, 'src');
  const assets = new Set<string>();
  const patterns = [
    /new URL\(\s*'([^']+)',\s*import\.meta\.url\s*\)/g,
    /register\(\s*'([^']+)',\s*\{\s*parentURL:\s*import\.meta\.url/g,
  ];
  for (const file of shippedSources(src)) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) {
        const target = resolve(dirname(file), match[1] ?? '');
        if (target.endsWith('.ts')) continue;
        const inPackage = relative(PROJECT_ROOT, target);
        assets.add(inPackage.startsWith('src/') ? `dist/${inPackage.slice(4)}` : inPackage);
      }
    }
  }
  return [...assets].sort();
}

function shippedSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'testing' || entry.name === 'fixtures' ? [] : shippedSources(path);
    return entry.name.endsWith('.ts') && !/\.(test|testing)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every file under dir, as paths relative to it. */
export function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(dir, path) : [path];
  });
}

/** The environment of a user with no LLM configured and a home of its own. */
export function plainUserEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(LLM_|ANTHROPIC_|OPENAI_|RVPORT_)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, RVPORT_HOME: home };
}
