import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port on loopback (asked of the kernel, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * A throwaway redis-server (the Debian package) on a free loopback port, without persistence:
 * the tests' own, never the system service. With `password` it requires AUTH; with `tls` it
 * speaks only TLS (redis-server's own, with the given PEM files) and the URL is rediss://.
 */
export async function startRedis(
  options: { password?: string; tls?: { cert: string; key: string; ca: string } } = {},
): Promise<{ url: string; port: number; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const listen = options.tls
    ? [
        '--port',
        '0',
        '--tls-port',
        String(port),
        '--tls-cert-file',
        options.tls.cert,
        '--tls-key-file',
        options.tls.key,
        '--tls-ca-cert-file',
        options.tls.ca,
        '--tls-auth-clients',
        'no',
      ]
    : ['--port', String(port)];
  const child = spawn(
    'redis-server',
    [
      ...listen,
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      ...(options.password !== undefined ? ['--requirepass', options.password] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
  });
  const auth = options.password !== undefined ? `:${encodeURIComponent(options.password)}@` : '';
  return {
    url: `${options.tls ? 'rediss' : 'redis'}://${auth}${options.tls ? 'localhost' : '127.0.0.1'}:${port}`,
    port,
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
