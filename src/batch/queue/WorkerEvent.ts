import type { EntryVerdict } from '../EntryResult.ts';

/** What a queue worker reports: as text on stderr, or one JSON object a line with `--json`. */
export type WorkerEvent =
  | { type: 'ready'; worker: string; queue: string; concurrency: number }
  | { type: 'started'; job: string; name: string; try: number }
  /** A job this worker does not run (bad SOURCE or name, a local path); the reason goes back. */
  | { type: 'refused'; job: string; reason: string }
  | { type: 'finished'; job: string; name: string; verdict: EntryVerdict; wallMs: number }
  /** Stopped with the worker; the job went back to the queue. */
  | { type: 'interrupted'; job: string; name: string }
  | { type: 'stopping' }
  | { type: 'error'; message: string };

export function describeWorkerEvent(event: WorkerEvent): string {
  switch (event.type) {
    case 'ready':
      return `worker ${event.worker} waiting for jobs on ${event.queue} (concurrency ${event.concurrency})`;
    case 'started':
      return `started ${event.name} (job ${event.job}, try ${event.try})`;
    case 'refused':
      return `refused job ${event.job}: ${event.reason}`;
    case 'finished':
      return `finished ${event.name}: ${event.verdict} in ${(event.wallMs / 1000).toFixed(1)} s`;
    case 'interrupted':
      return `interrupted ${event.name}: back to the queue`;
    case 'stopping':
      return 'stopping: interrupting running ports, their jobs go back to the queue';
    case 'error':
      return `queue error: ${event.message}`;
  }
}
