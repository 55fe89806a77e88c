import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { RvportError, type RvportErrorOptions } from '../errors/index.ts';
import { createServeApp } from './createServeApp.ts';
import type { IsAlive } from './readBatch.ts';
import type { WebAssets } from './webAssets.ts';

/** Where `rvport serve` listens unless told: this machine only. */
export const DEFAULT_SERVE_HOST = '127.0.0.1';
export const DEFAULT_SERVE_PORT = 8420;

export interface DashboardOptions {
  out: string;
  assets: WebAssets;
  host?: string;
  /** 0: any free port. */
  port?: number;
  alive?: IsAlive;
  log?: (message: string) => void;
}

export interface RunningDashboard {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Why the server could not listen; the system error (EADDRINUSE, …) is the cause. */
export type DashboardListenErrorCode =
  | 'address-in-use'
  | 'not-an-address'
  | 'needs-privileges'
  | 'listen-failed';

export class DashboardListenError extends RvportError {
  override name = 'DashboardListenError';
  declare readonly code: DashboardListenErrorCode;
  constructor(code: DashboardListenErrorCode, message: string, options?: RvportErrorOptions) {
    super(code, message, options);
  }
}

/** Starts the dashboard's server; resolves once it listens. */
export function startDashboard(options: DashboardOptions): Promise<RunningDashboard> {
  const host = options.host ?? DEFAULT_SERVE_HOST;
  let port = options.port ?? DEFAULT_SERVE_PORT;
  const app = createServeApp({
    out: options.out,
    assets: options.assets,
    host,
    port: () => port,
    ...(options.alive ? { alive: options.alive } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const [code, why]: [DashboardListenErrorCode, string] =
        error.code === 'EADDRINUSE'
          ? ['address-in-use', `port ${port} on ${host} is in use (choose another with --port)`]
          : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
            ? ['not-an-address', `${host} is not an address of this machine`]
            : error.code === 'EACCES'
              ? ['needs-privileges', `port ${port} needs privileges (choose one above 1023)`]
              : ['listen-failed', error.message];
      reject(new DashboardListenError(code, `cannot listen on ${host}:${port}: ${why}`, { cause: error }));
    });
    server.listen(port, host, () => {
      port = (server.address() as AddressInfo).port;
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown === '0.0.0.0' ? '127.0.0.1' : shown}:${port}/`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
  });
}
