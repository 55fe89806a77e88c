import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireSource, metadataDir, readAcquired } from './acquireSource.ts';
import { parseSource } from './parseSource.ts';

const root = mkdtempSync(join(tmpdir(), 'rvport-acquire-'));
const sh = (cmd: string, cwd = root) => execFileSync('/bin/sh', ['-c', cmd], { cwd, encoding: 'utf8' });
const gitId = '-c user.name=t -c user.email=t@t -c commit.gpgsign=false';

function plainTree(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'configure.ac'), 'AC_INIT([demo], [1.0])\n');
  writeFileSync(join(dir, 'src', 'main.c'), 'int main(void) { return 0; }\n');
  writeFileSync(join(dir, '.gitignore'), '*.c\n'); // shipped files are imported even if ignored
  return dir;
}

/** Everything under the test root except the given folders: nothing may be written there. */
function snapshot(except: string): string[] {
  return sh(`find . -path ./${except} -prune -o -print | sort`).split('\n');
}

describe('acquireSource', () => {
  it('imports a plain tree as a repository with one commit, shipped files included', async () => {
    const work = join(root, 'work-plain');
    const src = await acquireSource(parseSource(plainTree('plain')), { workDir: work });
    expect(src).toMatchObject({ name: 'plain', dir: join(work, 'plain'), kind: 'directory' });
    expect(src.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(src.gitDir).toBe(join(work, '.rvport', 'plain', 'git'));
    expect(existsSync(join(src.dir, '.git'))).toBe(false); // the tree is exactly the source
    expect(sh(`git --git-dir=${src.gitDir} rev-parse HEAD`).trim()).toBe(src.commit);
    expect(sh(`git --git-dir=${src.gitDir} ls-files`).split('\n')).toContain('src/main.c');
    expect(sh(`git --git-dir=${src.gitDir} --work-tree=${src.dir} status --porcelain`)).toBe('');
    expect(readdirSync(work).sort()).toEqual(['.rvport', 'plain']); // the staging folder is gone
  });

  it('copies a plain tree the user names through a link, not the link', async () => {
    symlinkSync(plainTree('linked-target'), join(root, 'linked'));
    const src = await acquireSource(parseSource(join(root, 'linked')), {
      workDir: join(root, 'work-linked'),
    });
    expect(lstatSync(src.dir).isDirectory()).toBe(true);
    expect(readFileSync(join(src.dir, 'configure.ac'), 'utf8')).toContain('AC_INIT');
  });

  it('clones a local repository and its committed state', async () => {
    const dir = plainTree('repo');
    sh(`git init -q . && git add -A -f && git ${gitId} commit -qm init`, dir);
    const commit = sh('git rev-parse HEAD', dir).trim();
    writeFileSync(join(dir, 'dirty.txt'), 'uncommitted');
    const src = await acquireSource(parseSource(dir), { workDir: join(root, 'work-repo') });
    expect(src.commit).toBe(commit);
    expect(existsSync(join(src.dir, 'dirty.txt'))).toBe(false);
    expect(src.warnings.join()).toMatch(/uncommitted/);
  });

  it('ports the working tree of a local repository git cannot clone (history naming objects it lacks)', async () => {
    const dir = plainTree('damaged');
    sh(`git init -q . && git add -A -f && git ${gitId} commit -qm one`, dir);
    writeFileSync(join(dir, 'src', 'main.c'), 'int main(void) { return 1; }\n');
    sh(`git ${gitId} commit -qam two`, dir);
    const lost = sh('git rev-parse HEAD~1:src/main.c', dir).trim();
    sh(`rm -f .git/objects/${lost.slice(0, 2)}/${lost.slice(2)}`, dir);
    writeFileSync(join(dir, 'edited.txt'), 'in the working tree only');
    const src = await acquireSource(parseSource(dir), { workDir: join(root, 'work-damaged') });
    expect(src.warnings.join('\n')).toMatch(
      /damaged is a repository git cannot clone \(aborting due to possible repository corruption\); porting its working tree/,
    );
    expect(readFileSync(join(src.dir, 'src', 'main.c'), 'utf8')).toContain('return 1');
    expect(existsSync(join(src.dir, 'edited.txt'))).toBe(true);
    expect(existsSync(join(src.dir, '.git'))).toBe(false); // the broken metadata is not copied
    expect(sh(`git --git-dir=${src.gitDir} rev-parse HEAD`).trim()).toBe(src.commit);
  });

  it('clones a git URL with its submodules (local ones from inside the same repository)', async () => {
    const top = plainTree('top');
    const sub = plainTree('top/vendor-src/sub');
    sh(`git init -q . && git add -A -f && git ${gitId} commit -qm sub`, sub);
    sh(
      `echo vendor-src/ > .gitignore && git init -q . && git -c protocol.file.allow=always submodule -q add ./vendor-src/sub third_party/sub && git add -A && git ${gitId} commit -qm top`,
      top,
    );
    const src = await acquireSource(parseSource(`file://${top}`), { workDir: join(root, 'work-git') });
    expect(src).toMatchObject({ kind: 'git', name: 'top', submodules: 'fetched' });
    expect(existsSync(join(src.dir, 'third_party', 'sub', 'src', 'main.c'))).toBe(true);

    sh(
      `git config -f .gitmodules submodule.third_party/sub.url ./vendor-src/gone && git ${gitId} commit -qam moved`,
      top,
    );
    const partial = await acquireSource(parseSource(`file://${top}`), { workDir: join(root, 'work-git2') });
    expect(partial.submodules).toBe('unreachable');
    expect(partial.warnings.join()).toMatch(/submodules could not be fetched/);
  });

  it('reuses a tree acquired from the same remote SOURCE and refetches on request', async () => {
    const repo = plainTree('again');
    sh(`git init -q . && git add -A -f && git ${gitId} commit -qm again`, repo);
    const work = join(root, 'work-again');
    const first = await acquireSource(parseSource(`file://${repo}`), { workDir: work });
    const second = await acquireSource(parseSource(`file://${repo}`), { workDir: work });
    expect(second.acquiredAt).toBe(first.acquiredAt);
    const third = await acquireSource(parseSource(`file://${repo}`), { workDir: work, reuse: false });
    expect(third.acquiredAt).not.toBe(first.acquiredAt);
    expect(readdirSync(work).sort()).toEqual(['.rvport', 'again']);
  });

  it('takes a local folder afresh each time, so later commits and edits are seen', async () => {
    const repo = plainTree('local');
    sh(`git init -q . && git add -A -f && git ${gitId} commit -qm one`, repo);
    const work = join(root, 'work-local');
    const first = await acquireSource(parseSource(repo), { workDir: work });
    writeFileSync(join(repo, 'src', 'main.c'), 'int main(void) { return 1; }\n');
    sh(`git ${gitId} commit -qam two`, repo);
    const second = await acquireSource(parseSource(repo), { workDir: work });
    expect(second.commit).not.toBe(first.commit);
    expect(readFileSync(join(second.dir, 'src', 'main.c'), 'utf8')).toContain('return 1');
  });

  it('refuses an empty directory', async () => {
    mkdirSync(join(root, 'empty'));
    expect(() => parseSource(join(root, 'empty'))).toThrow(/empty directory/);
    const spec = { kind: 'directory' as const, raw: 'empty', path: join(root, 'empty'), name: 'empty' };
    await expect(acquireSource(spec, { workDir: join(root, 'work-empty') })).rejects.toThrow(
      /empty directory/,
    );
    expect(readdirSync(join(root, 'work-empty'))).toEqual([]);
  });
});

describe('acquireSource with tarballs', () => {
  let server: ReturnType<typeof createServer>;
  let base = '';
  beforeAll(async () => {
    plainTree('pkg-1.0');
    sh('tar -czf pkg-1.0.tar.gz pkg-1.0');
    server = createServer((req, res) => {
      if (req.url === '/dl/pkg-1.0.tar.gz') res.end(readFileSync(join(root, 'pkg-1.0.tar.gz')));
      else if (req.url === '/dl/forged-1.0.tar.gz') res.end(readFileSync(join(root, 'forged-1.0.tar.gz')));
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());
  // the server is on loopback: the user's own --allow-private-addresses
  const lan = { fetch: { origin: 'command-line' as const, allowPrivateAddresses: true } };

  it('unpacks a tarball, dropping the single top folder', async () => {
    const src = await acquireSource(parseSource(join(root, 'pkg-1.0.tar.gz')), {
      workDir: join(root, 'work-tgz'),
    });
    expect(src.name).toBe('pkg');
    expect(src.tarballSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(src.dir, 'src', 'main.c'), 'utf8')).toContain('main');
  });

  it('keeps a tarball without a top folder as it is', async () => {
    sh('tar -cJf flat.tar.xz -C pkg-1.0 configure.ac src');
    const src = await acquireSource(parseSource(join(root, 'flat.tar.xz')), {
      workDir: join(root, 'work-flat'),
    });
    expect(sh(`git --git-dir=${src.gitDir} ls-files`).trim().split('\n').sort()).toEqual([
      'configure.ac',
      'src/main.c',
    ]);
  });

  it('downloads a tarball URL', async () => {
    const src = await acquireSource(parseSource(`${base}/dl/pkg-1.0.tar.gz`), {
      workDir: join(root, 'work-url'),
      ...lan,
    });
    expect(src).toMatchObject({ kind: 'tarball-url', name: 'pkg' });
    expect(existsSync(join(src.dir, 'configure.ac'))).toBe(true);
    await expect(
      acquireSource(parseSource(`${base}/dl/missing-1.0.tar.gz`), {
        workDir: join(root, 'work-url'),
        ...lan,
      }),
    ).rejects.toThrow(/HTTP 404/);
  });

  it('keeps its records outside the tree, so a shipped record cannot forge a reused source', async () => {
    const forged = join(root, 'forged-1.0');
    mkdirSync(join(forged, '.git'), { recursive: true });
    writeFileSync(join(forged, 'configure.ac'), 'AC_INIT([forged], [1.0])\n');
    const url = `${base}/dl/forged-1.0.tar.gz`;
    const lie = { name: 'forged', dir: '/etc', gitDir: '/etc', origin: url, commit: '0'.repeat(40) };
    writeFileSync(join(forged, '.git', 'rvport-source.json'), JSON.stringify(lie));
    writeFileSync(join(forged, '.git', 'source.json'), JSON.stringify(lie));
    sh('tar -czf forged-1.0.tar.gz forged-1.0');
    const work = join(root, 'work-forged');
    const first = await acquireSource(parseSource(url), { workDir: work, ...lan });
    expect(first.dir).toBe(join(work, 'forged'));
    const again = await acquireSource(parseSource(url), { workDir: work, ...lan });
    expect(again).toEqual(first); // the record rvport wrote, not the shipped one
    // a record that names another folder is not believed either
    writeFileSync(
      join(metadataDir(work, 'forged'), 'source.json'),
      JSON.stringify({ ...first, dir: '/etc' }),
    );
    expect(await readAcquired(work, 'forged')).toBeNull();
  });

  it('refuses ../ and absolute entries and writes nothing outside the work folder', async () => {
    mkdirSync(join(root, 'evil', 'inner'), { recursive: true });
    writeFileSync(join(root, 'evil', 'inner', 'x'), 'x');
    sh("tar -cf evil-dotdot.tar -C evil/inner -P --transform 's,^,../../,' x");
    expect(sh('tar -tf evil-dotdot.tar')).toContain('../../x');
    sh(`tar -cf evil-abs.tar -P ${join(root, 'evil', 'inner', 'x')}`);
    const before = snapshot('work-evil');
    for (const name of ['evil-dotdot.tar', 'evil-abs.tar']) {
      await expect(
        acquireSource(parseSource(join(root, name)), { workDir: join(root, 'work-evil') }),
      ).rejects.toThrow(/would land outside the target/);
    }
    expect(snapshot('work-evil')).toEqual(before);
    expect(readdirSync(join(root, 'work-evil'))).toEqual([]);
  });

  it('refuses a symbolic link that points outside the tree', async () => {
    mkdirSync(join(root, 'linky'));
    symlinkSync('/etc/passwd', join(root, 'linky', 'passwd'));
    sh('tar -cf linky.tar linky');
    await expect(
      acquireSource(parseSource(join(root, 'linky.tar')), { workDir: join(root, 'work-link') }),
    ).rejects.toThrow(/points outside/);
  });
});
