import { Redis, type RedisOptions } from 'ioredis';
import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../../errors/index.ts';

/** The one queue rvport's coordinators and workers share on a Redis server. */
export const QUEUE_NAME = 'rvport-ports';
/** How long to wait for the Redis server at start-up before saying it cannot be reached. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/** Where `--queue` without a URL takes it from (a URL on the command line is visible in `ps`). */
export const QUEUE_URL_ENV = 'RVPORT_QUEUE_URL';

export type QueueUrlErrorCode = 'invalid-queue-url' | 'queue-unreachable';

export class QueueUrlError extends RvportError {
  override name = 'QueueUrlError';
  declare readonly code: QueueUrlErrorCode;
  constructor(code: QueueUrlErrorCode, message: string, options?: RvportErrorOptions) {
    super(code, message, options);
  }
}

export function isQueueUrlError(error: unknown): error is QueueUrlError {
  return isRvportErrorNamed(error, ['QueueUrlError']);
}

/**
 * `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS); anything else is refused.
 * Messages never show the password.
 */
export function checkQueueUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QueueUrlError(
      'invalid-queue-url',
      `--queue needs a URL like redis://HOST:PORT, not ${JSON.stringify(redact(url))}`,
    );
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new QueueUrlError(
      'invalid-queue-url',
      `--queue needs a redis:// or rediss:// URL, not ${parsed.protocol}//`,
    );
  }
  if (!parsed.hostname)
    throw new QueueUrlError('invalid-queue-url', `--queue URL without a host: ${redact(url)}`);
  return parsed;
}

/**
 * What ioredis needs beside the URL it parses itself (user, password, host, port, db). TLS is
 * set from our own reading of the scheme: ioredis only sees a lower-case `rediss://`, and an
 * upper-case one would otherwise send the password in the clear.
 */
export function queueConnectionOptions(url: string): RedisOptions {
  return checkQueueUrl(url).protocol === 'rediss:' ? { tls: {} } : {};
}

/**
 * Opens a connection BullMQ can use (no per-command retry limit: a worker waits out a Redis
 * restart), after checking that the server answers at all, so a wrong URL or password is one
 * clear error instead of endless reconnecting.
 */
export async function connectQueue(
  url: string,
  timeoutMs: number = DEFAULT_CONNECT_TIMEOUT_MS,
): Promise<Redis> {
  const options = queueConnectionOptions(url);
  const probe = new Redis(url, {
    ...options,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let cause: Error | undefined;
  probe.on('error', (error: Error) => {
    cause ??= error; // the socket's own error (ECONNREFUSED, …) says more than connect()'s
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    const reason = scrub((cause ?? (error as Error)).message, url);
    throw new QueueUrlError('queue-unreachable', `cannot reach the queue at ${redact(url)}: ${reason}`);
  } finally {
    probe.disconnect();
  }
  const connection = new Redis(url, { ...options, maxRetriesPerRequest: null });
  connection.on('error', () => {}); // ioredis reconnects by itself; BullMQ reports what matters
  return connection;
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    // not a URL: still hide whatever sits between `:` and `@` after the scheme
    return url.replace(/(\/\/[^/:@]*:)[^@/]*@/, '$1***@');
  }
}

/** A message without the URL's password in it (in the URL's spelling or decoded). */
export function scrub(message: string, url: string): string {
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    return message;
  }
  if (!password) return message;
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // a malformed escape: only the spelled form can appear
  }
  return message.split(password).join('***').split(decoded).join('***');
}
