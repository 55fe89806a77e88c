import { z } from 'zod';
import { guardUnifiedDiff } from '../llm/index.ts';

export const RECIPE_ENTRY_VERSION = 1;

/**
 * A path an entry names inside a port's folders (an artifact under OUT/NAME/artifacts, the
 * build's folder in the source tree): relative, with no `..` segment, so a shared or returned
 * entry cannot make a host-side read or write leave them.
 */
const insidePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.startsWith('/') && !/[\\\0]/.test(p) && !p.split('/').includes('..'), {
    message: 'must be a relative path inside the port (no leading /, no .. segment)',
  });

const artifactSchema = z.object({
  path: insidePath,
  machine: z.string(),
  bits: z.number().nullable().optional(),
  abi: z.string().nullable().optional(),
  type: z.string().nullable().optional(),
  role: z.string().optional(),
});

/**
 * A patch as the cache keeps it. Entries come from imported bundles, so the name becomes a file
 * name under patches/ only in the form rvport writes it, and the diff passes the diff guard
 * (it is checked again against the tree when applied).
 */
const patchSchema = z
  .object({
    name: z.string().regex(/^[0-9]{4,}-[a-z0-9-]+\.patch$/, 'a patch name is NNNN-words.patch'),
    diff: z.string(),
  })
  .superRefine((patch, ctx) => {
    const verdict = guardUnifiedDiff(patch.diff);
    if (!verdict.allowed)
      ctx.addIssue({ code: 'custom', message: `patch ${patch.name} is refused: ${verdict.reason}` });
  });

/** One verified (or not) port of one package in one sandbox image: enough to build it again. */
export const recipeEntrySchema = z.object({
  formatVersion: z.literal(RECIPE_ENTRY_VERSION),
  package: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9.+_-]*$/),
  /** The sandbox image the recipe was proven in. */
  imageId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/),
  source: z.object({
    spec: z.string(),
    url: z.string().optional(),
    commit: z.string().optional(),
    /** The git tree id of the source it was built from (absent in entries of older versions). */
    tree: z
      .string()
      .regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/)
      .optional(),
  }),
  buildSystem: z.string(),
  plan: z.object({
    dir: insidePath,
    packages: z.array(z.string()),
    phases: z.array(
      z.object({ name: z.string(), commands: z.array(z.string()), optional: z.boolean().optional() }),
    ),
    /** The environment of every command (CFLAGS and the like set by repairs). */
    env: z.record(z.string(), z.string()).optional(),
  }),
  dependencies: z.array(z.string()),
  /**
   * Go modules and crates fetched from a module proxy or crate registry, each with the hash it
   * was checked against (absent in entries of ports that fetched none, and in older entries).
   */
  fetchedDependencies: z
    .array(
      z.object({
        kind: z.enum(['go-module', 'crate']),
        name: z.string().max(500),
        version: z.string().max(200),
        hash: z.string().max(200),
        modOnly: z.boolean().optional(),
        suppliedBy: z.enum(['proxy', 'registry', 'store']),
        from: z.string().max(2000),
      }),
    )
    .optional(),
  patches: z.array(patchSchema),
  artifacts: z.array(artifactSchema),
  verification: z.object({ verdict: z.enum(['verified', 'not_verified']), reason: z.string() }),
  durations: z.record(z.string(), z.number()),
  /** The recipe as Markdown (recipe.md). */
  recipe: z.string(),
  createdAt: z.string(),
  rvportVersion: z.string(),
  /**
   * What the sandbox mode stood on (absent in entries written before it was recorded): the
   * committed proof table, the build's own evidence (native-userland), or neither.
   */
  modeEvidence: z
    .object({
      mode: z.string(),
      kind: z.enum(['proof-table', 'per-build', 'none']),
      reason: z.string(),
      invocations: z.number().optional(),
      machineChecked: z.number().optional(),
      sampled: z.number().optional(),
      layer: z.string().optional(),
    })
    .optional(),
  /** The last `rvport replay` of the entry's build.sh: yes or no, and why. */
  replay: z
    .object({
      replayed: z.enum(['yes', 'no', 'skipped']),
      reason: z.string(),
      at: z.string(),
      mode: z.string(),
      durationMs: z.number(),
      compared: z.number(),
      identical: z.number(),
    })
    .optional(),
  /** The differential tests against x86_64: how many tests or smoke runs fail only on riscv64. */
  differential: z
    .object({ ran: z.boolean(), reason: z.string(), riscv64Only: z.number(), at: z.string() })
    .optional(),
});

export type RecipeEntry = z.infer<typeof recipeEntrySchema>;
