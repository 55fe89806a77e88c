import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPatches, canonicalPatch } from '../../src/port/patches/sourcePatches.ts';
import { acquireSource } from '../../src/sources/acquireSource.ts';
import { headTree, localHeadCommit } from '../../src/sources/git.ts';
import { parseSource } from '../../src/sources/parseSource.ts';
import { isSourceError, type SourceError } from '../../src/sources/SourceError.ts';
import { runCli } from '../helpers/rvportCli.ts';
import { craftTar } from './craftTar.ts';

// Real hostile trees, repositories and archives, acquired for real. Every attack writes into
// `canaries` if it gets to run a program on the host; nothing may ever appear there.
const root = mkdtempSync(join(tmpdir(), 'rvport-sec-sources-'));
const canaries = join(root, 'canaries');
const inputs = join(root, 'inputs');
mkdirSync(canaries);
mkdirSync(inputs);
const sh = (cmd: string, cwd = inputs) => execFileSync('/bin/sh', ['-c', cmd], { cwd, encoding: 'utf8' });
const gitId = '-c user.name=t -c user.email=t@t -c commit.gpgsign=false';
/** git for building the attacks, told to ignore what they plant (so setting them up is safe). */
const gitSafe = `git ${gitId} -c core.fsmonitor=false -c core.hooksPath=/dev/null`;

/** A script that records that it ran. */
function canaryScript(name: string): string {
  const path = join(inputs, `run-${name}.sh`);
  writeFileSync(path, `#!/bin/sh\ntouch ${join(canaries, name)}\ncat\n`);
  chmodSync(path, 0o755);
  return path;
}

function plantHooks(gitDir: string): void {
  mkdirSync(join(gitDir, 'hooks'), { recursive: true });
  for (const hook of ['pre-commit', 'post-commit', 'post-checkout', 'post-merge', 'reference-transaction']) {
    writeFileSync(join(gitDir, 'hooks', hook), `#!/bin/sh\ntouch ${join(canaries, hook)}\n`);
    chmodSync(join(gitDir, 'hooks', hook), 0o755);
  }
}

/** Config that makes naive host git run programs: fsmonitor, filters, diff driver, pager. */
function plantConfig(gitDir: string): void {
  const set = (key: string, value: string) => sh(`git config --file ${gitDir}/config ${key} '${value}'`);
  set('core.fsmonitor', canaryScript('fsmonitor'));
  set('filter.evil.clean', canaryScript('filter-clean'));
  set('filter.evil.smudge', canaryScript('filter-smudge'));
  set('filter.evil.required', 'true');
  set('diff.evil.command', canaryScript('diff-driver'));
  set('core.pager', canaryScript('pager'));
  set('core.sshCommand', canaryScript('ssh-command'));
  set('uploadpack.packObjectsHook', canaryScript('pack-objects-hook'));
}

function ran(): string[] {
  return readdirSync(canaries);
}

/** Everything under the test root outside the given folders, with sizes and modes. */
function snapshot(...excluded: string[]): string {
  const prune = [...excluded, 'canaries'].map((f) => `-path ./${f} -prune -o`).join(' ');
  return sh(`find . ${prune} -printf '%p %s %m\\n' | sort`, root);
}

async function refusal(promise: Promise<unknown>): Promise<SourceError> {
  try {
    await promise;
  } catch (error) {
    if (isSourceError(error)) return error;
    throw error;
  }
  throw new Error('expected a SourceError');
}

describe('a tarball carrying its own .git', () => {
  it('is imported without running its hooks, fsmonitor or filters; its .git stays plain data', async () => {
    const pkg = join(inputs, 'hooked', 'pkg-1.0');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'configure.ac'), 'AC_INIT([pkg], [1.0])\n');
    writeFileSync(join(pkg, '.gitattributes'), '* filter=evil diff=evil\n');
    sh(`${gitSafe} init -q .`, pkg);
    plantHooks(join(pkg, '.git'));
    plantConfig(join(pkg, '.git'));
    sh(`${gitSafe} config core.hooksPath .git/hooks`, pkg);
    sh('tar -czf hooked.tar.gz -C hooked pkg-1.0');
    const before = snapshot('work-hooked', 'build-copy');

    const src = await acquireSource(parseSource(join(inputs, 'hooked.tar.gz')), {
      workDir: join(root, 'work-hooked'),
    });
    expect(ran()).toEqual([]);
    expect(src.gitDir.startsWith(join(root, 'work-hooked', '.rvport'))).toBe(true);
    expect(existsSync(join(src.dir, '.git', 'hooks', 'post-commit'))).toBe(true); // data, as shipped
    expect(src.warnings.join()).toMatch(/ships git metadata \(\.git\).*never used by rvport's git/);
    const files = sh(`git --git-dir=${src.gitDir} ls-tree -r --name-only HEAD`).trim().split('\n');
    expect(files).toEqual(['.gitattributes', 'configure.ac']);
    expect(await headTree(src.gitDir)).toMatch(/^[0-9a-f]{40}$/);

    // the patch steps work on such a tree too (a throwaway index; a fresh copy)
    const patch = await canonicalPatch(
      src.dir,
      [],
      '--- a/configure.ac\n+++ b/configure.ac\n@@ -1 +1 @@\n-AC_INIT([pkg], [1.0])\n+AC_INIT([pkg], [1.1])\n',
      root,
    );
    expect(patch).toMatchObject({ files: ['configure.ac'] });
    const copy = join(root, 'build-copy');
    cpSync(src.dir, copy, { recursive: true, verbatimSymlinks: true });
    if ('diff' in patch) await applyPatches(copy, [{ name: '0001-x.patch', diff: patch.diff }]);
    expect(readFileSync(join(copy, 'configure.ac'), 'utf8')).toContain('1.1');
    expect(ran()).toEqual([]);
    expect(snapshot('work-hooked', 'build-copy')).toBe(before);

    // the attack is real: naive git in that tree runs the tarball's programs
    sh('git add -A && git commit -qm x || true', copy);
    expect(ran().length).toBeGreaterThan(0);
    sh(`rm -f ${canaries}/*`);
  });

  it('goes through the real CLI the same way', async () => {
    const run = await runCli(
      ['analyze', join(inputs, 'hooked.tar.gz'), '--no-contents', '--json', '--work', join(root, 'work-cli')],
      {
        cwd: root,
        env: { RVPORT_HOME: join(root, 'home-cli') },
      },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).source.kind).toBe('tarball');
    expect(ran()).toEqual([]);
  });
});

describe('a local repository with hostile config', () => {
  it('is cloned and checked without its fsmonitor, hooks, filters or upload-pack hook', async () => {
    const repo = join(inputs, 'local-repo');
    mkdirSync(join(repo, 'src'), { recursive: true });
    writeFileSync(join(repo, 'src', 'main.c'), 'int main(void) { return 0; }\n');
    writeFileSync(join(repo, '.gitattributes'), '*.c filter=evil diff=evil\n');
    sh(`${gitSafe} init -q . && ${gitSafe} add -A && ${gitSafe} commit -qm init`, repo);
    const commit = sh(`${gitSafe} rev-parse HEAD`, repo).trim();
    plantHooks(join(repo, '.git'));
    plantConfig(join(repo, '.git'));
    writeFileSync(join(repo, 'src', 'main.c'), 'int main(void) { return 1; }\n'); // dirty: status looks closer
    const before = snapshot('work-local');

    const src = await acquireSource(parseSource(repo), { workDir: join(root, 'work-local') });
    expect(ran()).toEqual([]);
    expect(src.commit).toBe(commit);
    expect(src.warnings.join()).toMatch(/uncommitted changes/);
    expect(readFileSync(join(src.dir, 'src', 'main.c'), 'utf8')).toContain('return 0');
    expect(await localHeadCommit(repo)).toBe(commit);
    expect(ran()).toEqual([]);
    expect(snapshot('work-local')).toBe(before);

    // the attack is real: plain `git status` in the folder runs its fsmonitor
    sh('git status --porcelain >/dev/null || true', repo);
    expect(ran()).toContain('fsmonitor');
    sh(`rm -f ${canaries}/*`);
  });
});

describe('a local repository of another user', () => {
  it('is refused with a clear message (git will not read its config as this user)', async () => {
    const repo = join(inputs, 'foreign-repo');
    mkdirSync(repo);
    writeFileSync(join(repo, 'f'), 'x\n');
    sh(`${gitSafe} init -q . && ${gitSafe} add -A && ${gitSafe} commit -qm init && chown -R nobody .`, repo);
    const error = await refusal(acquireSource(parseSource(repo), { workDir: join(root, 'work-foreign') }));
    expect(error.message).toMatch(/is a repository of another user, which git will not read as this one/);
    expect(readdirSync(join(root, 'work-foreign'))).toEqual([]);
  });
});

describe('submodules', () => {
  const secret = join(inputs, 'host-secret');
  let daemon: ChildProcess | undefined;
  let port = 0;
  beforeAll(async () => {
    mkdirSync(secret);
    writeFileSync(join(secret, 'SECRET'), 'host data\n');
    sh(`${gitSafe} init -q . && ${gitSafe} add -A && ${gitSafe} commit -qm secret`, secret);
    port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const served = join(inputs, 'served');
    mkdirSync(served);
    daemon = spawn(
      'git',
      [
        'daemon',
        '--export-all',
        `--base-path=${served}`,
        '--listen=127.0.0.1',
        `--port=${port}`,
        '--reuseaddr',
        served,
      ],
      { stdio: 'ignore' },
    );
  });
  afterAll(() => {
    if (daemon?.pid) process.kill(daemon.pid, 'SIGTERM');
  });

  function superproject(dir: string, urls: Record<string, string>): void {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'README'), 'top\n');
    sh(`${gitSafe} init -q .`, dir);
    for (const [path, url] of Object.entries(urls)) {
      sh(`${gitSafe} -c protocol.file.allow=always submodule -q add ${secret} ${path}`, dir);
      sh(`${gitSafe} config --file .gitmodules submodule.${path}.url '${url}'`, dir);
    }
    sh(`${gitSafe} add -A && ${gitSafe} commit -qm top`, dir);
  }

  it('refuses a local repository submodule that points at another host repository', async () => {
    const top = join(inputs, 'local-top');
    superproject(top, { 'third_party/secret': `file://${secret}` });
    const before = snapshot('work-sub-local');
    const src = await acquireSource(parseSource(top), { workDir: join(root, 'work-sub-local') });
    expect(src.submodules).toBe('unreachable');
    expect(src.warnings.join()).toMatch(
      /submodule third_party\/secret refused: the local URL .* is outside the source repository/,
    );
    expect(existsSync(join(src.dir, 'third_party', 'secret', 'SECRET'))).toBe(false);
    expect(snapshot('work-sub-local')).toBe(before);
  });

  it('refuses file:// and ext:: submodules of a remote source', async () => {
    await waitForPort(port);
    const top = join(inputs, 'served', 'remote-top');
    superproject(top, {
      'third_party/secret': `file://${secret}`,
      'third_party/ext': `ext::sh -c touch% ${join(canaries, 'ext')}`,
    });
    // the daemon is on loopback: the user's own flag (hostFetch.int.test.ts refuses it without)
    const src = await acquireSource(parseSource(`git://127.0.0.1:${port}/remote-top`), {
      workDir: join(root, 'work-sub-remote'),
      fetch: { origin: 'command-line', allowPrivateAddresses: true },
    });
    expect(src.kind).toBe('git');
    expect(src.submodules).toBe('unreachable');
    const warnings = src.warnings.join('\n');
    expect(warnings).toMatch(/third_party\/secret refused: a local URL .* is not allowed in a remote source/);
    expect(warnings).toMatch(/third_party\/ext refused: the URL .* uses a transport rvport does not allow/);
    expect(existsSync(join(src.dir, 'third_party', 'secret', 'SECRET'))).toBe(false);
    expect(ran()).toEqual([]);
  });
});

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      execFileSync('git', ['ls-remote', `git://127.0.0.1:${port}/none`], { stdio: 'ignore' });
      return;
    } catch (error) {
      // the daemon answers "not found" (exit 128) once it listens; refused connections also fail
      if ((error as { status?: number }).status === 128 && i > 5) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('hostile tarball entries', () => {
  const acquire = (file: string, work: string, limits?: { maxBytes?: number; maxEntries?: number }) =>
    acquireSource(parseSource(file), {
      workDir: join(root, work),
      ...(limits ? { tarballLimits: limits } : {}),
    });

  it('refuses device nodes and fifos, writing nothing', async () => {
    const dir = join(inputs, 'devs', 'pkg-1.0');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'README'), 'x\n');
    sh(`mknod ${join(dir, 'null')} c 1 3`);
    sh('tar -cf chardev.tar -C devs pkg-1.0');
    sh(`rm ${join(dir, 'null')} && mkfifo ${join(dir, 'pipe')} && tar -cf fifo.tar -C devs pkg-1.0`);
    writeFileSync(join(inputs, 'blockdev.tar'), craftTar([{ name: 'pkg/sda', type: '4' }]));
    const before = snapshot('work-dev');
    for (const [file, what] of [
      [
        'chardev.tar',
        /pkg-1.0\/null" is a character device; only files, folders and symbolic links are unpacked; refusing chardev.tar/,
      ],
      ['fifo.tar', /pkg-1.0\/pipe" is a fifo/],
      ['blockdev.tar', /pkg\/sda" is a block device/],
    ] as const) {
      const error = await refusal(acquire(join(inputs, file), 'work-dev'));
      expect(error.code).toBe('unsafe-entry');
      expect(error.message).toMatch(what);
    }
    expect(snapshot('work-dev')).toBe(before);
    expect(readdirSync(join(root, 'work-dev'))).toEqual([]);
  });

  it('drops setuid, setgid and sticky bits', async () => {
    const dir = join(inputs, 'suid', 'pkg-1.0');
    mkdirSync(join(dir, 'shared'), { recursive: true });
    writeFileSync(join(dir, 'tool'), '#!/bin/sh\n');
    chmodSync(join(dir, 'tool'), 0o6755);
    chmodSync(join(dir, 'shared'), 0o3777);
    sh('tar -cJf suid.tar.xz -C suid pkg-1.0');
    expect(sh('tar -tvJf suid.tar.xz')).toMatch(/rwsr-sr-x/);
    const src = await acquire(join(inputs, 'suid.tar.xz'), 'work-suid');
    expect(statSync(join(src.dir, 'tool')).mode & 0o7777).toBe(0o755);
    expect(statSync(join(src.dir, 'shared')).mode & 0o7777).toBe(0o777);
  });

  it('refuses pkg/up -> .. (judged after the top folder is dropped) and link chains that leave', async () => {
    const dir = join(inputs, 'uplink', 'pkg-1.0');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'sub', 'f'), 'x\n');
    symlinkSync('sub/f', join(dir, 'inside')); // fine
    symlinkSync('..', join(dir, 'up'));
    sh('tar -czf uplink.tar.gz -C uplink pkg-1.0');
    const error = await refusal(acquire(join(inputs, 'uplink.tar.gz'), 'work-up'));
    expect(error.code).toBe('unsafe-entry');
    expect(error.message).toMatch(/symbolic link up -> \.\. points outside the tree; refusing uplink.tar.gz/);

    writeFileSync(
      join(inputs, 'chain.tar'),
      craftTar([
        { name: 'pkg/', type: '5' },
        { name: 'pkg/d', type: '2', linkname: '.' },
        { name: 'pkg/l', type: '2', linkname: 'd/..' }, // textually inside, really the parent
      ]),
    );
    expect((await refusal(acquire(join(inputs, 'chain.tar'), 'work-up'))).message).toMatch(
      /symbolic link l -> d\/\.\. points outside the tree/,
    );
    expect(readdirSync(join(root, 'work-up'))).toEqual([]);

    symlinkSync('.', join(dir, 'self')); // inside after all: the tree's own root
    sh(`rm ${join(dir, 'up')} && tar -czf inlinks.tar.gz -C uplink pkg-1.0`);
    const ok = await acquire(join(inputs, 'inlinks.tar.gz'), 'work-up');
    expect(readFileSync(join(ok.dir, 'inside'), 'utf8')).toBe('x\n');
  });

  it('never writes through a link it created (link, then a file under it)', async () => {
    const outside = join(root, 'outside-target');
    mkdirSync(outside);
    writeFileSync(
      join(inputs, 'through-abs.tar'),
      craftTar([
        { name: 'pkg/', type: '5' },
        { name: 'pkg/a', type: '2', linkname: outside },
        { name: 'pkg/a/evil', type: '0', content: 'pwned\n' },
      ]),
    );
    writeFileSync(
      join(inputs, 'through-rel.tar'),
      craftTar([
        { name: 'pkg/', type: '5' },
        { name: 'pkg/sub/', type: '5' },
        { name: 'pkg/a', type: '2', linkname: 'sub' },
        { name: 'pkg/a/evil', type: '0', content: 'through\n' },
      ]),
    );
    // the same with GNU tar: a link archived, then a file appended under its name
    const gnu = join(inputs, 'gnu-through');
    mkdirSync(join(gnu, 'pkg'), { recursive: true });
    symlinkSync(outside, join(gnu, 'pkg', 'a'));
    mkdirSync(join(gnu, 'payload'));
    writeFileSync(join(gnu, 'payload', 'evil'), 'pwned\n');
    sh(
      'tar -cf ../through-gnu.tar pkg && tar -rf ../through-gnu.tar --transform s,^payload,pkg/a, payload/evil',
      gnu,
    );
    expect(sh('tar -tf through-gnu.tar')).toContain('pkg/a/evil');
    const before = snapshot('work-through');
    for (const file of ['through-abs.tar', 'through-rel.tar', 'through-gnu.tar']) {
      const error = await refusal(acquire(join(inputs, file), 'work-through'));
      expect(error.code).toBe('unsafe-entry');
      expect(error.message).toMatch(/"pkg\/a(\/evil)?" (lies under the symbolic link "pkg\/a"|is both)/);
    }
    expect(readdirSync(outside)).toEqual([]);
    expect(snapshot('work-through')).toBe(before);
  });

  it('turns inside hard links into copies and refuses ones that lead out', async () => {
    writeFileSync(
      join(inputs, 'hardlinks.tar'),
      craftTar([
        { name: 'pkg/', type: '5' },
        { name: 'pkg/a', type: '0', content: 'same\n' },
        { name: 'pkg/b', type: '1', linkname: 'pkg/a' },
      ]),
    );
    const ok = await acquire(join(inputs, 'hardlinks.tar'), 'work-hard');
    expect(readFileSync(join(ok.dir, 'b'), 'utf8')).toBe('same\n');
    expect(lstatSync(join(ok.dir, 'b')).ino).not.toBe(lstatSync(join(ok.dir, 'a')).ino);
    writeFileSync(
      join(inputs, 'hardout.tar'),
      craftTar([
        { name: 'pkg/', type: '5' },
        { name: 'pkg/passwd', type: '1', linkname: '/etc/passwd' },
      ]),
    );
    const error = await refusal(acquire(join(inputs, 'hardout.tar'), 'work-hard'));
    expect(error.code).toBe('unsafe-entry');
    expect(error.message).toMatch(
      /hard link "pkg\/passwd" -> "\/etc\/passwd" does not name a file unpacked before it/,
    );
  });

  it('refuses archives over the size or entry limits with their own codes', async () => {
    const dir = join(inputs, 'big', 'pkg-1.0');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 6; i++) writeFileSync(join(dir, `f${i}`), 'y'.repeat(400));
    sh('tar -c -C big pkg-1.0 | zstd -q -o big.tar.zst');
    const many = await refusal(acquire(join(inputs, 'big.tar.zst'), 'work-limits', { maxEntries: 4 }));
    expect(many.code).toBe('archive-too-many-files');
    expect(many.message).toMatch(/big.tar.zst has more than 4 entries; refusing it/);
    const large = await refusal(acquire(join(inputs, 'big.tar.zst'), 'work-limits', { maxBytes: 1000 }));
    expect(large.code).toBe('archive-too-large');
    expect(large.message).toMatch(/unpacks to more than 1000 bytes/);
    expect(readdirSync(join(root, 'work-limits'))).toEqual([]);
    const fine = await acquire(join(inputs, 'big.tar.zst'), 'work-limits', { maxEntries: 7, maxBytes: 2400 });
    expect(readdirSync(fine.dir).sort()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5']);
  });

  it('reports a name the file system cannot hold as a clear error', async () => {
    writeFileSync(
      join(inputs, 'longname.tar'),
      craftTar([
        { name: '././@LongLink', type: 'L', content: `pkg/${'n'.repeat(300)}` },
        { name: 'ignored', type: '0', content: 'x' },
      ]),
    );
    const error = await refusal(acquire(join(inputs, 'longname.tar'), 'work-long'));
    expect(error.message).toMatch(/cannot unpack longname.tar: ENAMETOOLONG/);
    expect(readdirSync(join(root, 'work-long'))).toEqual([]);
  });

  it('gives the CLI a clear message and exit 1, no stack trace', async () => {
    const run = await runCli(
      ['analyze', join(inputs, 'chardev.tar'), '--no-contents', '--work', join(root, 'work-cli-dev')],
      {
        cwd: root,
        env: { RVPORT_HOME: join(root, 'home-cli') },
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/is a character device; only files, folders and symbolic links are unpacked/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(join(root, 'work-cli-dev'))).toEqual([]);
  });
});
