import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { BatchStateError, BatchStore } from '../../batch/BatchStore.ts';
import { childPortRunner } from '../../batch/childPortRunner.ts';
import type { PortRunner } from '../../batch/PortRunner.ts';
import { parseBatchList } from '../../batch/parseBatchList.ts';
import { fetchFlags, type PortSettings, portFlags } from '../../batch/portFlags.ts';
import { QUEUE_URL_ENV } from '../../batch/queue/queueConnection.ts';
import { openQueuePortRunner, type QueuePortRunner } from '../../batch/queue/queuePortRunner.ts';
import { runBatch } from '../../batch/runBatch.ts';
import { SUMMARY_FILE, writeBatchReport } from '../../batch/writeBatchReport.ts';
import type { RequestedMode } from '../../port/index.ts';
import { RecipeCache } from '../../recipes/RecipeCache.ts';
import { recipeCacheDir } from '../../recipes/recipeCacheDir.ts';
import { ALLOW_PRIVATE_ADDRESSES_HELP } from '../allowPrivateAddresses.ts';
import { BatchProgress } from '../BatchProgress.ts';
import type { CliContext } from '../CliContext.ts';
import { ExitCode } from '../exitCodes.ts';
import { nonNegative, positiveInt } from '../numberOptions.ts';
import { isUsageError, UsageError } from '../UsageError.ts';

/** Ports at once on this machine when `--workers` is not given. */
export const DEFAULT_BATCH_WORKERS = 2;

interface BatchOptions {
  workers?: number;
  out: string;
  force?: boolean;
  queue?: string | true;
  jobTimeout?: number;
  maxAttempts?: number;
  mode?: RequestedMode;
  timeout?: number;
  testTimeout?: number;
  offline?: boolean;
  costCap?: number;
  differential?: boolean;
  allowPrivateAddresses?: boolean;
  json?: boolean;
}

export function registerBatchCommand(program: Command, ctx: CliContext): void {
  program
    .command('batch <list>')
    .description('port every SOURCE of LIST (one a line, # comments), locally or through a queue')
    .option('--workers <n>', `ports at once on this machine (default ${DEFAULT_BATCH_WORKERS})`, positiveInt)
    .option(
      '--out <dir>',
      'ports write OUT/NAME/; the batch writes OUT/summary.md, results.jsonl',
      './rvport-out',
    )
    .option('--force', 'run every entry again, ignoring earlier results and the recipe cache')
    .option(
      '--queue [url]',
      `distribute the ports as BullMQ jobs on redis://[:PASSWORD@]HOST:PORT or rediss://… (see rvport worker); without URL: $${QUEUE_URL_ENV}`,
    )
    .option('--job-timeout <seconds>', 'stop a port after this much wall time (a failed entry)', positiveInt)
    .option('--max-attempts <n>', 'attempts of each port before it escalates', positiveInt)
    .addOption(
      new Option('--mode <mode>', 'sandbox mode of the ports (default auto, as rvport port)').choices([
        'auto',
        'native-userland',
        'accelerated',
        'emulated',
      ]),
    )
    .option('--timeout <seconds>', 'time limit of one build command in a port', positiveInt)
    .option('--test-timeout <seconds>', 'time limit of each test command in a port', positiveInt)
    .option('--offline', 'no LLM calls in the ports even if a provider is configured')
    .option('--cost-cap <usd>', 'LLM cost limit of each port in dollars', nonNegative)
    .option('--differential', 'differential tests against x86_64 in every port (port --differential)')
    .option(
      '--allow-private-addresses',
      `${ALLOW_PRIVATE_ADDRESSES_HELP} (a local batch; with --queue, the worker's choice)`,
    )
    .option('--json', 'totals and results as JSON on stdout')
    .action(async (list: string, opts: BatchOptions) => {
      if (opts.queue && opts.workers !== undefined) {
        throw new UsageError(
          '--workers is for a local batch; with --queue, run `rvport worker --concurrency N`',
        );
      }
      if (opts.queue && opts.allowPrivateAddresses)
        throw new UsageError(
          "--allow-private-addresses is each worker's own choice with --queue: rvport worker --allow-private-addresses",
        );
      const queueUrl = opts.queue === true ? process.env[QUEUE_URL_ENV] : opts.queue;
      if (opts.queue === true && !queueUrl)
        throw new UsageError(`--queue without a URL needs $${QUEUE_URL_ENV}`);
      const listFile = resolve(list);
      const text = await readList(listFile);
      const entries = parseBatchList(text, dirname(listFile));
      if (entries.length === 0) throw new UsageError(`${list} has no entries (one SOURCE a line)`);
      const out = resolve(opts.out);
      const store = new BatchStore(out);
      const unlock = await store.lock();
      try {
        await runBatchCommand(store, out, entries, { ...opts, queueUrl }, ctx);
      } finally {
        unlock();
      }
    });
}

async function runBatchCommand(
  store: BatchStore,
  out: string,
  entries: ReturnType<typeof parseBatchList>,
  opts: BatchOptions & { queueUrl: string | undefined },
  ctx: CliContext,
): Promise<void> {
  const queueUrl = opts.queueUrl;
  await store.load();
  const settings: PortSettings = {
    force: !!opts.force,
    ...(opts.maxAttempts !== undefined ? { maxAttempts: opts.maxAttempts } : {}),
    ...(opts.mode !== undefined ? { mode: opts.mode } : {}),
    ...(opts.timeout !== undefined ? { commandTimeoutSec: opts.timeout } : {}),
    ...(opts.testTimeout !== undefined ? { testTimeoutSec: opts.testTimeout } : {}),
    ...(opts.offline ? { offline: true } : {}),
    ...(opts.costCap !== undefined ? { costCapUsd: opts.costCap } : {}),
    ...(opts.differential ? { differential: true } : {}),
  };
  const timeoutMs = opts.jobTimeout !== undefined ? opts.jobTimeout * 1000 : undefined;
  if (opts.force) await store.clear(); // a new batch id, so a queue gets new jobs

  let runner: PortRunner;
  let queueRunner: QueuePortRunner | undefined;
  if (queueUrl) {
    queueRunner = await openQueuePortRunner({
      url: queueUrl,
      batchId: store.batchId,
      settings,
      out,
      cache: new RecipeCache(recipeCacheDir()),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    runner = queueRunner;
  } else {
    runner = childPortRunner({
      out,
      portFlags: [
        ...portFlags(settings),
        ...fetchFlags({ queued: false, allowPrivateAddresses: !!opts.allowPrivateAddresses }),
      ],
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
  }

  const progress = new BatchProgress(process.stderr);
  const started = Date.now();
  let outcome: Awaited<ReturnType<typeof runBatch>>;
  try {
    outcome = await runBatch({
      entries,
      store,
      runner,
      // a queue's workers decide how many run at once: every entry is queued
      concurrency: opts.queue ? entries.length : (opts.workers ?? DEFAULT_BATCH_WORKERS),
      force: false,
      signal: ctx.signal,
      onEvent: progress.handle,
      onProgress: (summary) => writeBatchReport(out, summary).then(() => {}),
    });
  } finally {
    progress.stop();
    await queueRunner?.close();
  }
  const { summary, interrupted } = outcome;
  const files = await writeBatchReport(out, summary);
  const wallMs = Date.now() - started;
  ctx.exitCode = interrupted
    ? ExitCode.Interrupted
    : summary.failed > 0
      ? ExitCode.Failure
      : ExitCode.Success;
  if (opts.json) {
    const { rows, ...totals } = summary;
    ctx.out(
      `${JSON.stringify(
        {
          ...totals,
          interrupted,
          batchWallMs: wallMs,
          files,
          results: rows.map((r) => r.result).filter((r) => r !== null),
        },
        null,
        2,
      )}\n`,
    );
  }
  ctx.err(
    `rvport: batch ${interrupted ? 'interrupted' : 'finished'} in ${(wallMs / 1000).toFixed(1)} s: ` +
      `${summary.verified} verified, ${summary.failed} failed, ${summary.pending} not finished` +
      `${interrupted ? ' (run the same command to continue)' : ''}\nrvport: summary in ${resolve(out, SUMMARY_FILE)}\n`,
  );
}

async function readList(file: string): Promise<string> {
  try {
    if ((await stat(file)).isDirectory()) throw new UsageError(`LIST ${file} is a directory, not a file`);
    return await readFile(file, 'utf8');
  } catch (error) {
    if (isUsageError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : (code ?? (error as Error).message);
    throw new UsageError(`cannot read LIST ${file}: ${why}`);
  }
}
