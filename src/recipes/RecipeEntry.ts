import { z } from 'zod';

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

/** git's mode of a symbolic link: a patch that makes one could point a later host-side read anywhere. */
const SYMLINK_MODE = /^(new file mode|new mode) 120000$/m;

const artifactSchema = z.object({
  path: insidePath,
  machine: z.string(),
  bits: z.number().nullable().optional(),
  abi: z.string().nullable().optional(),
  type: z.string().nullable().optional(),
  role: z.string().optional(),
});

/** One verified (or not) port of one package in one sandbox image: enough to build it again. */
export const recipeEntrySchema = z.object({
  formatVersion: z.literal(RECIPE_ENTRY_VERSION),
  package: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9.+_-]*$/),
  /** The sandbox image the recipe was proven in. */
  imageId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/),
  source: z.object({ spec: z.string(), url: z.string().optional(), commit: z.string().optional() }),
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
  patches: z.array(
    z.object({
      /** Written as OUT/NAME/patches/NAME: a plain file name. */
      name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*$/, 'must be a plain file name'),
      diff: z.string().refine((d) => !SYMLINK_MODE.test(d), { message: 'must not create a symbolic link' }),
    }),
  ),
  artifacts: z.array(artifactSchema),
  verification: z.object({ verdict: z.enum(['verified', 'not_verified']), reason: z.string() }),
  durations: z.record(z.string(), z.number()),
  /** The recipe as Markdown (recipe.md). */
  recipe: z.string(),
  createdAt: z.string(),
  rvportVersion: z.string(),
});

export type RecipeEntry = z.infer<typeof recipeEntrySchema>;
