import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import {
  DashboardListenError,
  DEFAULT_SERVE_HOST,
  DEFAULT_SERVE_PORT,
  startDashboard,
} from '../../serve/startDashboard.ts';
import { findWebAssets, loadWebAssets } from '../../serve/webAssets.ts';
import type { CliContext } from '../CliContext.ts';
import { ExitCode } from '../exitCodes.ts';
import { UsageError } from '../UsageError.ts';

interface ServeFlags {
  out: string;
  port: number;
  host: string;
  json?: boolean;
}

/** A TCP port: 1 to 65535, or 0 for any free one. */
function tcpPort(value: string): number {
  const n = Number(value);
  if (!/^[0-9]{1,5}$/.test(value) || n > 65535)
    throw new InvalidArgumentError('must be a port number from 0 to 65535');
  return n;
}

export function registerServeCommand(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('a read-only local web dashboard of the ports and batches in an output folder')
    .option('--out <dir>', 'the output folder of rvport port / rvport batch', './rvport-out')
    .option('--port <n>', `TCP port (0: any free one)`, tcpPort, DEFAULT_SERVE_PORT)
    .option(
      '--host <address>',
      'address to listen on (0.0.0.0 shows the folder to the network)',
      DEFAULT_SERVE_HOST,
    )
    .option('--json', 'the address as JSON on stdout once the server listens')
    .action(async (opts: ServeFlags) => {
      const out = resolve(opts.out);
      const kind = await stat(out).then(
        (s) => (s.isDirectory() ? 'folder' : 'file'),
        () => 'missing',
      );
      if (kind === 'missing')
        throw new UsageError(`${out} does not exist (pass the --out of rvport port or batch)`);
      if (kind === 'file') throw new UsageError(`${out} is a file, not an output folder`);
      const dir = findWebAssets();
      if (!dir) throw new UsageError("the dashboard's web files are not built: run `npm run build` first");
      const dashboard = await startDashboard({
        out,
        assets: loadWebAssets(dir),
        host: opts.host,
        port: opts.port,
        log: (message) => ctx.err(`${message}\n`),
      });
      if (opts.json) ctx.out(`${JSON.stringify({ url: dashboard.url, out })}\n`);
      ctx.err(`rvport: dashboard of ${out} at ${dashboard.url} (Ctrl+C stops it)\n`);
      await new Promise<void>((done) => {
        if (ctx.signal.aborted) done();
        ctx.signal.addEventListener('abort', () => done(), { once: true });
      });
      await dashboard.close();
      ctx.exitCode = ExitCode.Success;
    });
}
