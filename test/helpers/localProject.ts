import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runPort } from '../../src/port/index.ts';

/** Commits everything in `dir` as a new repository's first commit (a local SOURCE with a commit). */
export function commitAll(dir: string): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'init');
  return dir;
}

/** Writes `files` (paths relative to `dir`) and commits them. */
export function gitProject(dir: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return commitAll(dir);
}

/** A plain Makefile that links `sources` into the program `name` (with `libs` after them) and installs it. */
export function plainMakefile(name: string, sources: string, libs = ''): string {
  return [
    'PREFIX ?= /usr/local',
    `SRCS := ${sources}`,
    `all: ${name}`,
    `${name}: $(SRCS)`,
    `\t$(CC) $(CFLAGS) -o $@ $(SRCS)${libs ? ` ${libs}` : ''}`,
    'install: all',
    `\tmkdir -p $(DESTDIR)$(PREFIX)/bin && cp ${name} $(DESTDIR)$(PREFIX)/bin/`,
    '',
  ].join('\n');
}

/**
 * A port as `rvport port SOURCE --mode auto --offline --force` runs it, in the test's own home,
 * with no native-userland proof (a build stands on its own evidence).
 */
export function portWithoutProofs(
  source: string,
  options: { out: string; home: string; maxAttempts: number },
) {
  return runPort(
    {
      source,
      maxAttempts: options.maxAttempts,
      force: true,
      optimize: false,
      package: false,
      restart: true,
      mode: 'auto',
      out: options.out,
      offline: true,
      costCapUsd: 0,
      keepSandbox: false,
      proofs: { command: '', proofs: {} },
      env: { ...process.env, RVPORT_HOME: options.home },
    },
    { signal: new AbortController().signal, progress: () => {} },
  );
}
