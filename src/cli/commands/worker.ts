import { resolve } from 'node:path';
import type { Command } from 'commander';
import { QUEUE_URL_ENV } from '../../batch/queue/queueConnection.ts';
import { runQueueWorker } from '../../batch/queue/runQueueWorker.ts';
import { describeWorkerEvent } from '../../batch/queue/WorkerEvent.ts';
import { ALLOW_PRIVATE_ADDRESSES_HELP } from '../allowPrivateAddresses.ts';
import type { CliContext } from '../CliContext.ts';
import { ExitCode } from '../exitCodes.ts';
import { positiveInt } from '../numberOptions.ts';
import { UsageError } from '../UsageError.ts';

export function registerWorkerCommand(program: Command, ctx: CliContext): void {
  program
    .command('worker')
    .description('run the ports of distributed batches (rvport batch --queue) on this machine until Ctrl+C')
    .option(
      '--queue <url>',
      `the BullMQ queue: redis://[:PASSWORD@]HOST:PORT or rediss://… (TLS); default $${QUEUE_URL_ENV}`,
    )
    .option('--concurrency <n>', 'ports at once on this machine', positiveInt, 1)
    .option('--out <dir>', "where this machine's ports write OUT/NAME/", './rvport-out')
    .option(
      '--lock-seconds <n>',
      "a dead worker's job goes back to the queue after about this long",
      positiveInt,
      60,
    )
    .option(
      '--allow-local-sources',
      'also take jobs whose SOURCE is a path on this machine (folder, tarball, file:// URL)',
    )
    .option('--allow-private-addresses', ALLOW_PRIVATE_ADDRESSES_HELP)
    .option('--json', 'one JSON object a line on stdout per job event')
    .action(
      async (opts: {
        queue?: string;
        concurrency: number;
        out: string;
        lockSeconds: number;
        allowLocalSources?: boolean;
        allowPrivateAddresses?: boolean;
        json?: boolean;
      }) => {
        const url = opts.queue ?? process.env[QUEUE_URL_ENV];
        if (!url) throw new UsageError(`rvport worker needs --queue URL (or $${QUEUE_URL_ENV})`);
        const { queueLost } = await runQueueWorker({
          url,
          concurrency: opts.concurrency,
          out: resolve(opts.out),
          lockMs: opts.lockSeconds * 1000,
          allowLocalSources: !!opts.allowLocalSources,
          allowPrivateAddresses: !!opts.allowPrivateAddresses,
          signal: ctx.signal,
          onEvent: (event) =>
            opts.json
              ? ctx.out(`${JSON.stringify(event)}\n`)
              : ctx.err(`rvport worker: ${describeWorkerEvent(event)}\n`),
        });
        ctx.exitCode = ExitCode.Interrupted;
        // BullMQ's connections retry a lost Redis for ever; the ports are stopped and nothing is
        // left to save, so leave now rather than wait for a second Ctrl+C.
        if (queueLost) process.exit(ExitCode.Interrupted);
      },
    );
}
