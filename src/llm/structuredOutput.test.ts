import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  jsonInstruction,
  outputSchemaFor,
  parseStructuredReply,
  relaxedForDecoding,
  repairPrompt,
} from './structuredOutput.ts';

const Plan = z.object({ buildSystem: z.enum(['cmake', 'autotools']), steps: z.array(z.string()) });

describe('outputSchemaFor', () => {
  it('converts a zod schema and marks strict-compatible ones', () => {
    const output = outputSchemaFor(Plan, 'build plan!');
    expect(output.name).toBe('build_plan_');
    expect(output.strict).toBe(true);
    expect(output.jsonSchema).not.toHaveProperty('$schema');
    expect(output.jsonSchema).toMatchObject({ type: 'object', required: ['buildSystem', 'steps'] });
  });

  it('does not ask for strict mode when a field is optional', () => {
    expect(outputSchemaFor(z.object({ a: z.string(), b: z.string().optional() })).strict).toBe(false);
    expect(outputSchemaFor(z.looseObject({ a: z.string() })).strict).toBe(false);
  });
});

describe('parseStructuredReply', () => {
  it('accepts bare JSON, fenced JSON and JSON wrapped in prose', () => {
    const value = { buildSystem: 'cmake', steps: ['cmake -B build'] };
    const json = JSON.stringify(value);
    expect(parseStructuredReply(json, Plan)).toEqual({ ok: true, value });
    expect(parseStructuredReply(`\`\`\`json\n${json}\n\`\`\``, Plan)).toEqual({ ok: true, value });
    expect(parseStructuredReply(`Here is the plan:\n${json}\nGood luck.`, Plan)).toEqual({ ok: true, value });
  });

  it('phrases problems so a repair turn can quote them', () => {
    expect(parseStructuredReply('', Plan)).toEqual({ ok: false, problems: [expect.stringMatching(/empty/)] });
    expect(parseStructuredReply('{"buildSystem": ', Plan)).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^The reply is not valid JSON: /)],
    });
    const wrong = parseStructuredReply('{"buildSystem":"scons","steps":[1]}', Plan);
    expect(wrong).toEqual({
      ok: false,
      problems: [
        expect.stringMatching(/Invalid option.*at buildSystem$/),
        expect.stringMatching(/expected string, received number at steps\.0$/),
      ],
    });
  });
});

describe('prompts', () => {
  it('quotes every problem in the repair turn', () => {
    const text = repairPrompt(['Invalid input at a', 'Missing b']);
    expect(text).toContain('- Invalid input at a\n- Missing b');
    expect(text).toMatch(/only the corrected JSON/);
  });

  it('includes the schema only when asked', () => {
    const output = outputSchemaFor(Plan);
    expect(jsonInstruction(output, false)).not.toContain('"properties"');
    expect(jsonInstruction(output, true)).toContain('"buildSystem"');
  });
});

describe('relaxedForDecoding', () => {
  it('drops bounds that constrained decoding may refuse, keeping the structure', () => {
    const schema = outputSchemaFor(
      z.object({
        attempts: z.int().min(1),
        names: z.array(z.string().min(2)).max(4),
        properties: z.string(),
      }),
    ).jsonSchema;
    expect(relaxedForDecoding(schema)).toEqual({
      type: 'object',
      properties: {
        attempts: { type: 'integer' },
        names: { type: 'array', items: { type: 'string' } },
        properties: { type: 'string' },
      },
      required: ['attempts', 'names', 'properties'],
      additionalProperties: false,
    });
  });
});
