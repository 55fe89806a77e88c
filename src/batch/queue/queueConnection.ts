import { Redis } from 'ioredis';

/** The one queue rvport's coordinators and workers share on a Redis server. */
export const QUEUE_NAME = 'rvport-ports';
/** How long to wait for the Redis server at start-up before saying it cannot be reached. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

export class QueueUrlError extends Error {
  override name = 'QueueUrlError';
}

/** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS); anything else is refused. */
export function checkQueueUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QueueUrlError(`--queue needs a URL like redis://HOST:PORT, not ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new QueueUrlError(`--queue needs a redis:// or rediss:// URL, not ${parsed.protocol}//`);
  }
  if (!parsed.hostname) throw new QueueUrlError(`--queue URL without a host: ${url}`);
  return parsed;
}

/**
 * Opens a connection BullMQ can use (no per-command retry limit: a worker waits out a Redis
 * restart), after checking that the server answers at all, so a wrong URL is one clear error
 * instead of endless reconnecting.
 */
export async function connectQueue(
  url: string,
  timeoutMs: number = DEFAULT_CONNECT_TIMEOUT_MS,
): Promise<Redis> {
  checkQueueUrl(url);
  const probe = new Redis(url, {
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
    const reason = (cause ?? (error as Error)).message;
    throw new QueueUrlError(`cannot reach the queue at ${redact(url)}: ${reason}`);
  } finally {
    probe.disconnect();
  }
  const connection = new Redis(url, { maxRetriesPerRequest: null });
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
    return url;
  }
}
