import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxError } from '../errors.ts';
import { STATIC_COMPILER_HINT, staticCompiler } from '../staticCompiler.ts';

export const ENTER_SOURCE = fileURLToPath(new URL('./enter/enter.c', import.meta.url));

/**
 * Capability numbers (linux/capability.h) of the names a sandbox may keep: the entry program
 * takes numbers, so that it needs no table of its own.
 */
export const CAPABILITY_NUMBERS: Readonly<Record<string, number>> = {
  chown: 0,
  dac_override: 1,
  dac_read_search: 2,
  fowner: 3,
  fsetid: 4,
  kill: 5,
  setgid: 6,
  setuid: 7,
  setpcap: 8,
  net_bind_service: 10,
  sys_chroot: 18,
  sys_admin: 21,
  mknod: 27,
  audit_write: 29,
  setfcap: 31,
};

/** The entry program's capability argument: the kept names as numbers. */
export function capabilityList(names: readonly string[]): string {
  return names
    .map((name) => {
      const number = CAPABILITY_NUMBERS[name];
      if (number === undefined) throw new Error(`unknown capability: ${name}`);
      return number;
    })
    .join(',');
}

const compiled = new Map<string, string>();

/**
 * The host path of the sandbox's entry program (enter/enter.c), compiled statically once per
 * source into `binDir` (a folder of rvport's home, owned by the host user: no sandbox id can
 * write it, and no instance sees it). Its name carries the source's hash, so an edited source is
 * compiled afresh and a stale program is never run.
 */
export function enterProgram(binDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const source = readFileSync(ENTER_SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const program = join(binDir, `enter-${hash}`);
  const known = compiled.get(program);
  if (known) return known;
  if (!existsSync(program)) {
    const compiler = staticCompiler(env);
    if (!compiler)
      throw new SandboxError('host-not-ready', 'no C compiler for the sandbox entry program', {
        fix: STATIC_COMPILER_HINT,
      });
    mkdirSync(binDir, { recursive: true, mode: 0o755 });
    const temp = `${program}.${process.pid}.partial`;
    try {
      execFileSync(compiler, ['-O2', '-static', '-o', temp, ENTER_SOURCE], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      chmodSync(temp, 0o755);
      renameSync(temp, program);
    } catch (error) {
      rmSync(temp, { force: true });
      const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
      throw new SandboxError(
        'host-not-ready',
        `cannot compile the sandbox entry program: ${stderr?.split('\n')[0] ?? (error as Error).message}`,
        { fix: STATIC_COMPILER_HINT },
      );
    }
  }
  compiled.set(program, program);
  return program;
}
