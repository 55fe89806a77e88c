import { z } from 'zod';

/** The `rvport port` options a batch passes on to every port (locally or through a queue). */
export const portSettingsSchema = z
  .object({
    force: z.boolean(),
    maxAttempts: z.number().int().positive().optional(),
    mode: z.enum(['auto', 'native-userland', 'accelerated', 'emulated']).optional(),
    /** Time limit of one build command, seconds (`port --timeout`). */
    commandTimeoutSec: z.number().int().positive().optional(),
    /** Time limit of each test command, seconds (`port --test-timeout`). */
    testTimeoutSec: z.number().int().positive().optional(),
    /** No LLM calls even where a provider is configured (`port --offline`). */
    offline: z.boolean().optional(),
    /** LLM cost limit of each port in dollars (`port --cost-cap`). */
    costCapUsd: z.number().nonnegative().optional(),
    /** Differential tests against x86_64 (`port --differential`). */
    differential: z.boolean().optional(),
  })
  .strict();
export type PortSettings = z.infer<typeof portSettingsSchema>;

/**
 * The flags for `rvport port`, built from typed settings only: a queue job carries settings,
 * never raw arguments, so a worker runs no flag it did not expect.
 */
export function portFlags(settings: PortSettings): string[] {
  const flags: string[] = [];
  if (settings.force) flags.push('--force');
  if (settings.maxAttempts !== undefined) flags.push('--max-attempts', String(settings.maxAttempts));
  if (settings.mode !== undefined) flags.push('--mode', settings.mode);
  if (settings.commandTimeoutSec !== undefined) flags.push('--timeout', String(settings.commandTimeoutSec));
  if (settings.testTimeoutSec !== undefined) flags.push('--test-timeout', String(settings.testTimeoutSec));
  if (settings.offline) flags.push('--offline');
  if (settings.costCapUsd !== undefined) flags.push('--cost-cap', String(settings.costCapUsd));
  if (settings.differential) flags.push('--differential');
  return flags;
}

/**
 * Flags only the machine that runs a port sets, never a job's settings: that a queue job chose
 * the SOURCE (so it gets no ssh keys and no redirects), and the operator's own
 * `--allow-private-addresses`.
 */
export function fetchFlags(options: { queued: boolean; allowPrivateAddresses: boolean }): string[] {
  return [
    ...(options.queued ? ['--source-origin', 'queue'] : []),
    ...(options.allowPrivateAddresses ? ['--allow-private-addresses'] : []),
  ];
}
