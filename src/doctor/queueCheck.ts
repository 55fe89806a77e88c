import { connectQueue, isQueueUrlError, QUEUE_URL_ENV, redact } from '../batch/queue/queueConnection.ts';
import { type DoctorCheck, failed, passed } from './DoctorCheck.ts';

export const QUEUE_PROBE_TIMEOUT_MS = 5_000;

export interface QueueFacts {
  /** Redacted; absent when no `--queue URL` or RVPORT_QUEUE_URL was given (then nothing is checked). */
  url?: string;
  error?: string;
}

export function evaluateQueue(facts: QueueFacts): DoctorCheck[] {
  if (facts.url === undefined) return [];
  if (!facts.error) return [passed('queue', `Redis at ${facts.url} answers (batch --queue)`)];
  return [
    failed(
      'queue',
      facts.error,
      `start Redis there, or give the right URL: rvport doctor --queue redis://HOST:PORT (or ${QUEUE_URL_ENV})`,
    ),
  ];
}

export async function gatherQueueFacts(env: NodeJS.ProcessEnv, url?: string): Promise<QueueFacts> {
  const given = url ?? env[QUEUE_URL_ENV];
  if (!given) return {};
  try {
    const connection = await connectQueue(given, QUEUE_PROBE_TIMEOUT_MS);
    connection.disconnect();
    return { url: redact(given) };
  } catch (error) {
    const message = isQueueUrlError(error) ? error.message : `cannot reach the queue at ${redact(given)}`;
    return { url: redact(given), error: message };
  }
}
