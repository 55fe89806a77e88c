import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rvportHome } from '../../src/config/rvportHome.ts';
import { imageKeys, modeStackKeys } from '../../src/sandbox/findImages.ts';
import { DEFAULT_SUITE } from '../../src/sandbox/imageRecipes.ts';
import { sandboxPaths } from '../../src/sandbox/sandboxPaths.ts';
import { makePortHome } from '../helpers/portHome.ts';
import { runCli } from '../helpers/rvportCli.ts';
import { PROVISION_TIMEOUT_MS, provisionedImages } from '../sandbox/provisionedImages.ts';

/**
 * A build that takes over the programs the sandbox's assembly runs, through the real CLI: it
 * replaces the instance's setpriv, env and unshare with a script that climbs out of a chroot
 * (perl's chroot and chdir, as root of the user namespace) and writes a host file and every image
 * tree it can reach, and tries the same climb from the build itself and from a nested user
 * namespace. Every image of the stack must stay byte-identical, the host file unwritten, and a
 * later port of a clean repository must verify on the untouched tools.
 */
const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/overlay/${name}`, import.meta.url), 'utf8');
const PORT_TIMEOUT_MS = 10 * 60_000;
const HELLO = '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n';
const MAKEFILE = [
  'all: hello',
  '\tsh ./attack.sh $(CANARY)',
  'hello: hello.c',
  '\t$(CC) -O1 -o $@ $<',
  'install:',
  '\tmkdir -p $(DESTDIR)/usr/bin && cp hello $(DESTDIR)/usr/bin/',
  '',
].join('\n');

let work: string;
let home: string;
let canaryDir: string;
let before: Map<string, string>;

/** What every entry of a tree is (type, mode, owner, content or link target), never following a link. */
async function treeDigest(tree: string): Promise<string> {
  const hash = createHash('sha256');
  const visit = async (rel: string): Promise<void> => {
    const path = join(tree, rel);
    const st = await lstat(path);
    hash.update(`${rel}\0${st.mode}\0${st.uid}:${st.gid}\0`);
    if (st.isSymbolicLink()) hash.update(await readlink(path));
    else if (st.isFile()) hash.update(await readFile(path));
    else if (st.isDirectory()) for (const name of (await readdir(path)).sort()) await visit(join(rel, name));
  };
  await visit('');
  return hash.digest('hex');
}

async function stackDigests(): Promise<Map<string, string>> {
  const paths = sandboxPaths(rvportHome());
  const digests = new Map<string, string>();
  for (const key of modeStackKeys(imageKeys(DEFAULT_SUITE), 'accelerated')) {
    const tree = join(paths.image(key), 'tree');
    if (existsSync(tree)) digests.set(key, await treeDigest(tree));
  }
  return digests;
}

async function port(name: string, files: Record<string, string>) {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
  const out = join(work, `out-${name}`);
  const result = await runCli(
    ['port', dir, '--offline', '--out', out, '--mode', 'accelerated', '--no-replay'],
    {
      cwd: work,
      env: { RVPORT_HOME: home },
    },
  );
  return { ...result, out: join(out, name) };
}

async function verdict(out: string): Promise<string | undefined> {
  const state = JSON.parse(await readFile(join(out, 'state.json'), 'utf8'));
  return state.verification?.verdict;
}

beforeAll(async () => {
  await provisionedImages();
  work = await mkdtemp(join(tmpdir(), 'rvport-overlay-'));
  home = makePortHome();
  // /var/tmp, not /tmp: the assembly of an instance covers /tmp in its namespace
  canaryDir = await mkdtemp('/var/tmp/rvport-canary-');
  await chmod(canaryDir, 0o777);
  before = await stackDigests();
}, PROVISION_TIMEOUT_MS);

afterAll(async () => {
  for (const dir of [work, home, canaryDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a build that replaces the programs the sandbox assembly runs', () => {
  it(
    'never has them run with privilege: no host file written, every image byte-identical',
    async () => {
      const result = await port('overlay-programs', {
        'hello.c': HELLO,
        Makefile: MAKEFILE.replace('$(CANARY)', canaryDir),
        'attack.sh': fixture('attack.sh'),
        'evil.sh': fixture('evil.sh'),
        'escape.pl': fixture('escape.pl'),
      });
      expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
      const log = await readFile(join(result.out, 'build.log'), 'utf8');
      // the attack ran: it replaced the programs, and the climbs from the build were refused
      expect(log).toContain('replaced /usr/bin/setpriv');
      expect(log).toContain('direct: refused');
      expect(log).toContain('nested: refused');
      expect(existsSync(join(canaryDir, 'written'))).toBe(false);
      expect(await stackDigests()).toEqual(before);
      // later commands of the instance (install, copies) still worked: nothing of it was needed
      expect(await verdict(result.out)).toBe('verified');
    },
    PORT_TIMEOUT_MS,
  );

  it(
    'leaves the tools as they were for the next, clean port, which verifies',
    async () => {
      const result = await port('clean-after', {
        'hello.c': HELLO,
        Makefile: MAKEFILE.replace('\tsh ./attack.sh $(CANARY)\n', ''),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(await verdict(result.out)).toBe('verified');
      expect(await stackDigests()).toEqual(before);
    },
    PORT_TIMEOUT_MS,
  );
});
