import { z } from 'zod';

// The parts of a port's state.json the dashboard shows. The file sits in a folder a hostile build
// may have written into, so every field is checked, and a field of the wrong shape reads as
// missing (`.catch`) rather than failing the whole page: a view of what is there, never a crash.

const str = z.string().max(100_000);
const optStr = str.nullable().optional().catch(null);
const num = z.number().finite();
const optNum = num.nullable().optional().catch(null);

const errorRecord = z.object({
  node: optStr,
  phase: optStr,
  command: optStr,
  category: str.catch('UNKNOWN'),
  severity: str.catch('unknown'),
  message: str.catch(''),
  errorLine: optStr,
});

const artifact = z.object({
  path: str,
  machine: optStr,
  bits: optNum,
  type: optStr,
  abi: optStr,
  role: optStr,
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable()
    .optional()
    .catch(null),
  size: optNum,
});

const executed = z.object({ phase: str, command: str.catch(''), durationMs: num.nonnegative() });

export const portStateSchema = z.object({
  source: z
    .object({ spec: str.catch(''), name: str.catch(''), url: optStr, commit: optStr })
    .nullable()
    .optional()
    .catch(null),
  options: z.object({ mode: optStr }).nullable().optional().catch(null),
  plan: z.object({ buildSystem: optStr }).nullable().optional().catch(null),
  packageAnalysis: z.object({ buildSystem: optStr }).nullable().optional().catch(null),
  buildStatus: optStr,
  errors: z.array(errorRecord).max(100_000).catch([]).default([]),
  artifacts: z.array(artifact).max(100_000).catch([]).default([]),
  executed: z.array(executed).max(1_000_000).catch([]).default([]),
  verification: z
    .object({ verdict: z.enum(['verified', 'not_verified']), reason: str.catch('') })
    .nullable()
    .optional()
    .catch(null),
  tests: z
    .object({ ran: z.boolean(), passed: num.nonnegative(), failed: num.nonnegative() })
    .nullable()
    .optional()
    .catch(null),
  differential: z
    .object({
      ran: z.boolean(),
      reason: str.catch(''),
      riscv64Only: num.nonnegative().catch(0),
      x86Only: num.nonnegative().catch(0),
    })
    .nullable()
    .optional()
    .catch(null),
  replay: z
    .object({
      replayed: z.enum(['yes', 'no', 'skipped']),
      reason: str.catch(''),
      compared: num.nonnegative().catch(0),
      identical: num.nonnegative().catch(0),
    })
    .nullable()
    .optional()
    .catch(null),
  timings: z.record(z.string().max(200), num.nonnegative()).catch({}).default({}),
  escalationReason: optStr,
});

export type PortStateView = z.infer<typeof portStateSchema>;

/** One line of results.jsonl, or one value of batch.json's `results`. */
export const entryResultSchema = z.object({
  key: str,
  line: num.int().nonnegative().nullable().optional().catch(null),
  source: str.catch(''),
  name: str.max(200).nullable().catch(null),
  verdict: z
    .enum(['verified', 'not_verified', 'escalated', 'package_failed', 'invalid', 'crashed', 'timed_out'])
    .catch('crashed'),
  buildSystem: optStr,
  errorCategory: optStr,
  wallMs: optNum,
  tests: z
    .object({ ran: z.boolean(), passed: num.nonnegative(), failed: num.nonnegative() })
    .nullable()
    .optional()
    .catch(null),
  riscv64OnlyFailures: optNum,
  message: str.catch(''),
  finishedAt: optStr,
});

export type EntryResultView = z.infer<typeof entryResultSchema>;

export const batchStateSchema = z.object({
  rvportBatch: z.literal(1),
  results: z.record(z.string().max(10_000), z.unknown()),
});
