import { z } from 'zod';
import { portSettingsSchema } from '../portFlags.ts';

/** What a coordinator puts on the queue for one entry: settings, never raw command-line flags. */
export const portJobSchema = z
  .object({
    rvportJob: z.literal(1),
    key: z.string().min(1),
    line: z.number().int().positive(),
    source: z.string().min(1),
    name: z.string().min(1),
    settings: portSettingsSchema,
    /** Job time-out: the worker stops the port after this much wall time. */
    timeoutMs: z.number().int().positive().optional(),
    /** Wall time of runs of this job that a stopping worker interrupted (added to the result). */
    earlierMs: z.number().int().nonnegative().optional(),
  })
  .strict();
export type PortJob = z.infer<typeof portJobSchema>;

export const entryResultSchema = z.object({
  key: z.string(),
  line: z.number(),
  source: z.string(),
  name: z.string().nullable(),
  verdict: z.enum([
    'verified',
    'not_verified',
    'escalated',
    'package_failed',
    'invalid',
    'crashed',
    'timed_out',
  ]),
  exitCode: z.number().nullable(),
  buildSystem: z.string().nullable(),
  errorCategory: z.string().nullable(),
  attempts: z.number(),
  wallMs: z.number(),
  llm: z.object({ calls: z.number(), costUsd: z.number() }),
  cacheHit: z.boolean(),
  tests: z.object({ ran: z.boolean(), passed: z.number(), failed: z.number() }).nullable(),
  message: z.string(),
  worker: z.string(),
  finishedAt: z.string(),
});

/** Small text outputs a worker sends back, so the coordinator's OUT/NAME/ has them too. */
export const RETURNED_FILES = ['recipe.md', 'report.md', 'escalation.md'] as const;
export const RETURNED_FILE_MAX_BYTES = 512 * 1024;

/** A worker's bundle holds one package's entries; more than this is not an honest one. */
export const RETURNED_BUNDLE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * What a worker returns: the result, the recipe-cache entries it made (an export bundle), files.
 * Anyone who can write to the queue can write this too: the coordinator checks it all.
 */
export const portJobReturnSchema = z.object({
  result: entryResultSchema,
  /** `RecipeCache.exportBundle` text of the package's entries, or null when there are none. */
  recipes: z.string().max(RETURNED_BUNDLE_MAX_BYTES).nullable(),
  files: z.partialRecord(z.enum(RETURNED_FILES), z.string().max(RETURNED_FILE_MAX_BYTES)),
});
export type PortJobReturn = z.infer<typeof portJobReturnSchema>;
