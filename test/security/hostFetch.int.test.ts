import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AcquireOptions, acquireSource } from '../../src/sources/acquireSource.ts';
import { parseSource } from '../../src/sources/parseSource.ts';
import { isSourceError, type SourceError } from '../../src/sources/SourceError.ts';
import { runCli } from '../helpers/rvportCli.ts';

// Host-side fetches are confined: a repository's .gitmodules (or a URL from a queue job) must
// not make host git reach this machine's own services or its LAN, and a SOURCE nobody typed must
// not log in with the host user's ssh keys. A loopback HTTP server records every request it
// gets; the attacks must leave it with none, the controls (the user's own flag) reach it.
const root = mkdtempSync(join(tmpdir(), 'rvport-sec-hostfetch-'));
const inputs = join(root, 'inputs');
mkdirSync(inputs);
const sh = (cmd: string, cwd = inputs) => execFileSync('/bin/sh', ['-c', cmd], { cwd, encoding: 'utf8' });
const gitSafe = 'git -c user.name=t -c user.email=t@t -c commit.gpgsign=false -c core.hooksPath=/dev/null';

let server: Server;
let port = 0;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    requests.push(`${req.method} ${req.headers.host} ${req.url}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  requests.length = 0;
});

/** A repository whose .gitmodules names `urls` (gitlinks to a commit nobody has). */
function superproject(name: string, urls: Record<string, string>): string {
  const dir = join(inputs, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'README'), 'top\n');
  sh(`${gitSafe} init -q .`, dir);
  const modules = Object.entries(urls)
    .map(([path, url]) => `[submodule "${path}"]\n\tpath = ${path}\n\turl = ${url}\n`)
    .join('');
  writeFileSync(join(dir, '.gitmodules'), modules);
  for (const path of Object.keys(urls))
    sh(`${gitSafe} update-index --add --cacheinfo 160000,${'1'.repeat(40)},${path}`, dir);
  sh(`${gitSafe} add README .gitmodules && ${gitSafe} commit -qm top`, dir);
  return dir;
}

async function acquire(source: string, work: string, options: Partial<AcquireOptions> = {}) {
  return acquireSource(parseSource(source), { workDir: join(root, work), ...options });
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

describe('.gitmodules naming this machine or its LAN', () => {
  it('fetches nothing from loopback, localhost, a v4-mapped loopback or a private range; each refusal names the URL and the address', async () => {
    const urls = {
      loopback: `http://127.0.0.1:${port}/a.git`,
      name: `http://localhost:${port}/b.git`,
      mapped: `http://[::ffff:127.0.0.1]:${port}/c.git`,
      lan: 'http://10.11.12.13/d.git',
      metadata: 'http://169.254.169.254/latest/meta-data.git',
    };
    const top = superproject('attack', urls);
    const src = await acquire(top, 'work-attack');
    expect(requests).toEqual([]);
    expect(src.submodules).toBe('unreachable');
    const warnings = src.warnings.join('\n');
    for (const [path, url] of Object.entries(urls))
      expect(warnings).toContain(`submodule ${path} refused: ${url} reaches `);
    expect(warnings).toMatch(/127\.0\.0\.1:\d+\/a\.git reaches 127\.0\.0\.1, which is not a public address/);
    expect(warnings).toMatch(
      /localhost:\d+\/b\.git reaches (127\.0\.0\.1|::1), which is not a public address/,
    );
    expect(warnings).toMatch(/d\.git reaches 10\.11\.12\.13, which is not a public address/);
    expect(warnings).toContain('--allow-private-addresses');
  });

  it('control: with --allow-private-addresses the loopback submodule is fetched from', async () => {
    const top = superproject('control', { loopback: `http://127.0.0.1:${port}/a.git` });
    const src = await acquire(top, 'work-control', {
      fetch: { origin: 'command-line', allowPrivateAddresses: true },
    });
    expect(requests.some((r) => r.includes('/a.git/info/refs'))).toBe(true);
    expect(src.submodules).toBe('unreachable'); // the server has no repository
  });
});

describe('a SOURCE on the command line naming this machine', () => {
  it('clones nothing from a loopback or localhost git URL, with the URL and address in the error', async () => {
    for (const url of [`http://127.0.0.1:${port}/top.git`, `http://localhost:${port}/top.git`]) {
      const error = await refusal(acquire(url, 'work-top'));
      expect(error.code).toBe('private-address');
      expect(error.message).toContain(`${url} reaches `);
      expect(error.message).toMatch(/reaches (127\.0\.0\.1|::1), which is not a public address/);
    }
    expect(requests).toEqual([]);
  });

  it('downloads no tarball from a loopback URL', async () => {
    const url = `http://127.0.0.1:${port}/dl/pkg-1.0.tar.gz`;
    const error = await refusal(acquire(url, 'work-tarball'));
    expect(error.code).toBe('private-address');
    expect(error.message).toContain(`${url} reaches 127.0.0.1`);
    expect(requests).toEqual([]);
  });

  it('control: with --allow-private-addresses the clone reaches the server', async () => {
    const url = `http://127.0.0.1:${port}/top.git`;
    const error = await refusal(
      acquire(url, 'work-top-allowed', { fetch: { origin: 'command-line', allowPrivateAddresses: true } }),
    );
    expect(error.code).toBe('acquire'); // the server answers 404
    expect(requests.some((r) => r.includes('/top.git/info/refs'))).toBe(true);
  });
});

describe('the real binary', () => {
  const env = { RVPORT_HOME: join(root, 'home') };

  it('rvport analyze refuses a loopback SOURCE with exit 1 and the URL and address; --allow-private-addresses lifts it', async () => {
    const url = `http://127.0.0.1:${port}/top.git`;
    const refused = await runCli(['analyze', url, '--no-contents'], { cwd: root, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${url} reaches 127.0.0.1, which is not a public address`);
    expect(requests).toEqual([]);

    const allowed = await runCli(['analyze', url, '--no-contents', '--allow-private-addresses'], {
      cwd: root,
      env,
    });
    expect(allowed.code).toBe(1); // the server has no repository
    expect(requests.some((r) => r.includes('/top.git/info/refs'))).toBe(true);
  });
});

describe('ssh SOURCEs nobody typed', () => {
  // a stand-in ssh on PATH records that it ran and whether it got the agent
  const bin = join(root, 'bin');
  const record = join(root, 'ssh-ran');
  const saved = { PATH: process.env.PATH, SSH_AUTH_SOCK: process.env.SSH_AUTH_SOCK };
  beforeAll(() => {
    mkdirSync(bin);
    mkdirSync(record);
    writeFileSync(
      join(bin, 'ssh'),
      `#!/bin/sh\necho "agent=\${SSH_AUTH_SOCK:-none} $*" > ${record}/$$\nexit 255\n`,
    );
    chmodSync(join(bin, 'ssh'), 0o755);
    process.env.PATH = `${bin}:${process.env.PATH}`;
    process.env.SSH_AUTH_SOCK = join(root, 'agent.sock');
  });
  afterAll(() => {
    process.env.PATH = saved.PATH;
    if (saved.SSH_AUTH_SOCK === undefined) delete process.env.SSH_AUTH_SOCK;
    else process.env.SSH_AUTH_SOCK = saved.SSH_AUTH_SOCK;
  });
  const runs = () => readdirSync(record).map((f) => readFileSync(join(record, f), 'utf8'));

  it.each(['queue', 'state', 'cache'] as const)('refuses one from %s before ssh runs', async (origin) => {
    const url = 'ssh://git@example.invalid/o/top.git';
    const error = await refusal(
      acquire(url, `work-ssh-${origin}`, { fetch: { origin, allowPrivateAddresses: false } }),
    );
    expect(error.code).toBe('untrusted-origin');
    expect(error.message).toContain(url);
    expect(error.message).toMatch(/only for a SOURCE given on the command line/);
    expect(runs()).toEqual([]);
  });

  it('control: one from the command line runs ssh, with the agent', async () => {
    const error = await refusal(acquire('ssh://git@example.invalid/o/top.git', 'work-ssh-cli'));
    expect(error.code).toBe('acquire');
    expect(runs().join()).toContain(`agent=${join(root, 'agent.sock')}`);
  });
});
