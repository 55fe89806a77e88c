import { z } from 'zod';

/** What a provider needs to ask for JSON of a given shape. */
export interface OutputSchema {
  name: string;
  jsonSchema: Record<string, unknown>;
  /** OpenAI's strict mode accepts only schemas where every property is required and closed. */
  strict: boolean;
}

export function outputSchemaFor(schema: z.ZodType, name = 'answer'): OutputSchema {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return { name: sanitizeSchemaName(name), jsonSchema, strict: isStrictCompatible(jsonSchema) };
}

function sanitizeSchemaName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'answer' : cleaned;
}

function isStrictCompatible(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(isStrictCompatible);
  if (typeof node !== 'object' || node === null) return true;
  const record = node as Record<string, unknown>;
  if (record.type === 'object' || record.properties !== undefined) {
    const properties = (record.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(record.required) ? record.required : [];
    if (record.additionalProperties !== false) return false;
    if (!Object.keys(properties).every((key) => required.includes(key))) return false;
  }
  return Object.values(record).every(isStrictCompatible);
}

/**
 * Keywords left out of the schema a provider decodes against: constrained decoding does not
 * support them everywhere (Anthropic's structured output refuses numeric and length bounds), and
 * they are still enforced, with a repair turn, by the zod validation of every reply.
 */
const DECODING_UNSUPPORTED = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
]);

export function relaxedForDecoding(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relaxedForDecoding);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(DECODING_UNSUPPORTED.has(key) && typeof value !== 'object'))
      .map(([key, value]) => [key, relaxedForDecoding(value)]),
  );
}

export type StructuredParse<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/**
 * Reads the JSON a model meant to send: the whole reply, else the body of a ```json fence, else
 * the outermost {…} or […]. Then validates it; problems are phrased so a repair turn can quote them.
 */
export function parseStructuredReply<T>(text: string, schema: z.ZodType<T>): StructuredParse<T> {
  const json = extractJson(text);
  if (!json.ok) return { ok: false, problems: [json.problem] };
  const result = schema.safeParse(json.value);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => {
      const at = issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : ' at the top level';
      return `${issue.message}${at}`;
    }),
  };
}

function extractJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'The reply was empty; a JSON value was expected.' };
  const candidates = [trimmed];
  const fence = /```(?:json)?\s*\n([\s\S]*?)```/i.exec(trimmed);
  if (fence?.[1]) candidates.push(fence[1].trim());
  const start = trimmed.search(/[[{]/);
  const end = Math.max(trimmed.lastIndexOf('}'), trimmed.lastIndexOf(']'));
  if (start >= 0 && end > start) candidates.push(trimmed.slice(start, end + 1));
  let firstError = '';
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (error) {
      if (firstError === '') firstError = error instanceof Error ? error.message : String(error);
    }
  }
  return { ok: false, problem: `The reply is not valid JSON: ${firstError}` };
}

/** The user turn that asks for a corrected answer, quoting what was wrong. */
export function repairPrompt(problems: readonly string[]): string {
  return [
    'Your previous reply could not be used:',
    ...problems.map((problem) => `- ${problem}`),
    'Reply again with only the corrected JSON value, no prose and no code fence.',
  ].join('\n');
}

/** A system-prompt paragraph asking for JSON; with the schema when the API cannot enforce it. */
export function jsonInstruction(output: OutputSchema, includeSchema: boolean): string {
  const head = 'Answer with a single JSON value only: no prose before or after it and no code fence.';
  if (!includeSchema) return head;
  return `${head} It must match this JSON Schema:\n${JSON.stringify(output.jsonSchema)}`;
}
