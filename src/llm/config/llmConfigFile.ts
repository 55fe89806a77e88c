import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { LlmError } from '../errors.ts';
import { LLM_ROLES } from '../llmRoles.ts';

const ModelPriceSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().optional(),
  cacheWrite: z.number().nonnegative().optional(),
});

const roleModels = Object.fromEntries(
  LLM_ROLES.map((role) => [role, z.string().min(1).optional()]),
) as Record<(typeof LLM_ROLES)[number], z.ZodOptional<z.ZodString>>;

/** The `llm` section of `RVPORT_HOME/config.json`. API keys stay in the environment. */
export const LlmConfigFileSchema = z.strictObject({
  provider: z.string().min(1).optional(),
  baseUrl: z.url().optional(),
  /** Read the key from this variable instead of the provider's usual one. */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .optional(),
  /** The model for every role that has no model of its own. */
  model: z.string().min(1).optional(),
  models: z.strictObject(roleModels).optional(),
  costCapUsd: z.number().nonnegative().optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
  maxRepairTurns: z.number().int().min(0).max(5).optional(),
  /** `native`: the API's structured output (`output_config.format`); `instruction`: schema in the prompt. */
  anthropicStructuredOutput: z.enum(['native', 'instruction']).optional(),
  /** Extra or corrected prices, dollars per million tokens (a local model: `{ "input": 0, "output": 0 }`). */
  prices: z.record(z.string().min(1), ModelPriceSchema).optional(),
});

export type LlmConfigFile = z.infer<typeof LlmConfigFileSchema>;

/** Other parts of rvport may add their own sections to the same file. */
const ConfigFileSchema = z.looseObject({ llm: LlmConfigFileSchema.optional() });

export const CONFIG_FILE_NAME = 'config.json';

/** The `llm` section of `HOME/config.json`; `{}` when the file does not exist. */
export async function readLlmConfigFile(home: string): Promise<LlmConfigFile> {
  const path = join(home, CONFIG_FILE_NAME);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new LlmError('config-invalid', `cannot read ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return parseLlmConfigFile(text, path);
}

export function parseLlmConfigFile(text: string, path = CONFIG_FILE_NAME): LlmConfigFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LlmError('config-invalid', `${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ConfigFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new LlmError(
      'config-invalid',
      `${path} is not a valid rvport configuration:\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data.llm ?? {};
}
