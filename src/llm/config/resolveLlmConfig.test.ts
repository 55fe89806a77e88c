import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LLM_ROLES } from '../llmRoles.ts';
import { DEFAULT_MODELS } from './defaultModels.ts';
import { parseLlmConfigFile } from './llmConfigFile.ts';
import { loadLlmConfig, resolveLlmConfig } from './resolveLlmConfig.ts';

describe('resolveLlmConfig', () => {
  it('is offline, with a reason, when nothing is configured', () => {
    const config = resolveLlmConfig({ env: {} });
    expect(config.provider).toBeNull();
    expect(config.offlineReason).toMatch(/no LLM provider configured/);
    expect(config.costCapUsd).toBe(1);
  });

  it('is offline, not broken, when the named provider has no key', () => {
    const config = resolveLlmConfig({ env: { LLM_PROVIDER: 'anthropic' } });
    expect(config.provider).toBeNull();
    expect(config.offlineReason).toMatch(/ANTHROPIC_API_KEY is not set/);
  });

  it('picks the provider from the key present and uses its default models', () => {
    const config = resolveLlmConfig({ env: { ANTHROPIC_API_KEY: 'k' } });
    expect(config.provider).toEqual({ kind: 'anthropic', name: 'anthropic', apiKey: 'k' });
    expect(config.models).toEqual(DEFAULT_MODELS.anthropic);
    const openai = resolveLlmConfig({ env: { OPENAI_API_KEY: 'o' } });
    expect(openai.provider).toEqual({ kind: 'openai', name: 'openai', apiKey: 'o' });
    expect(openai.models.fixer).toBe(DEFAULT_MODELS.openai.fixer);
  });

  it('layers defaults < file < environment < flags', () => {
    const file = parseLlmConfigFile(
      JSON.stringify({
        sandbox: { other: 'section' },
        llm: {
          provider: 'openai',
          model: 'gpt-5.4',
          models: { fixer: 'gpt-5.5' },
          costCapUsd: 2,
          maxRepairTurns: 1,
        },
      }),
    );
    const env = { OPENAI_API_KEY: 'o', RVPORT_LLM_MODEL_SCOUT: 'gpt-5.6-luna' };
    const config = resolveLlmConfig({
      env,
      file,
      overrides: { models: { curator: 'gpt-5-nano' }, costCapUsd: 0.25 },
    });
    expect(config.models).toEqual({
      planner: 'gpt-5.4',
      scout: 'gpt-5.6-luna',
      fixer: 'gpt-5.5',
      summarizer: 'gpt-5.4',
      curator: 'gpt-5-nano',
      optimizer: 'gpt-5.4',
    });
    expect(config.costCapUsd).toBe(0.25);
    expect(config.maxRepairTurns).toBe(1);
  });

  it('lets LLM_PROVIDER beat the file and a flag beat LLM_PROVIDER', () => {
    const file = { provider: 'openai' };
    const env = { LLM_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' };
    expect(resolveLlmConfig({ env, file }).provider?.kind).toBe('anthropic');
    expect(resolveLlmConfig({ env, file, overrides: { provider: 'openai' } }).provider?.kind).toBe('openai');
    expect(resolveLlmConfig({ env, file, overrides: { offline: true } })).toMatchObject({
      provider: null,
      offlineReason: 'offline mode requested',
    });
  });

  it('passes base URLs from the SDK variables', () => {
    const config = resolveLlmConfig({
      env: { ANTHROPIC_API_KEY: 'a', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999' },
    });
    expect(config.provider?.baseUrl).toBe('http://127.0.0.1:9999');
  });

  it('needs a model and a base URL for an OpenAI-compatible server, but no key', () => {
    expect(resolveLlmConfig({ env: { LLM_PROVIDER: 'openrouter' } }).offlineReason).toMatch(
      /OPENAI_BASE_URL/,
    );
    expect(resolveLlmConfig({ env: { LLM_PROVIDER: 'ollama' } }).offlineReason).toMatch(/RVPORT_LLM_MODEL/);
    const ollama = resolveLlmConfig({
      env: { LLM_PROVIDER: 'ollama', RVPORT_LLM_MODEL_FIXER: 'qwen3-coder:30b' },
    });
    expect(ollama.provider).toEqual({
      kind: 'openai-compatible',
      name: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
    });
    for (const role of LLM_ROLES) expect(ollama.models[role]).toBe('qwen3-coder:30b');
    const router = resolveLlmConfig({
      env: {
        LLM_PROVIDER: 'openrouter',
        OPENROUTER_API_KEY: 'r',
        OPENAI_BASE_URL: 'http://127.0.0.1:7000/api/v1',
        RVPORT_LLM_MODEL: 'anthropic/claude-sonnet-5-5',
      },
    });
    expect(router.provider).toMatchObject({ kind: 'openai-compatible', name: 'openrouter', apiKey: 'r' });
  });

  it('reports an unknown provider name instead of guessing', () => {
    expect(resolveLlmConfig({ env: { LLM_PROVIDER: 'skynet' } }).offlineReason).toMatch(
      /unknown LLM provider "skynet"/,
    );
    expect(resolveLlmConfig({ env: { LLM_PROVIDER: 'none', OPENAI_API_KEY: 'o' } }).provider).toBeNull();
  });

  it('turns configured prices into full price entries', () => {
    const config = resolveLlmConfig({
      env: {},
      file: { prices: { 'qwen3-coder:30b': { input: 0, output: 0 } } },
    });
    expect(config.prices['qwen3-coder:30b']).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(config.prices['claude-opus-5-5']).toBeDefined();
  });
});

describe('config file', () => {
  let home: string | undefined;
  afterEach(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('is optional', async () => {
    home = await mkdtemp(join(tmpdir(), 'rvport-home-'));
    const config = await loadLlmConfig({ env: { RVPORT_HOME: home } });
    expect(config.provider).toBeNull();
  });

  it('is read from RVPORT_HOME/config.json', async () => {
    home = await mkdtemp(join(tmpdir(), 'rvport-home-'));
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({ llm: { provider: 'anthropic', models: { fixer: 'claude-fable-5-1' } } }),
    );
    const config = await loadLlmConfig({ env: { RVPORT_HOME: home, ANTHROPIC_API_KEY: 'a' } });
    expect(config.provider?.kind).toBe('anthropic');
    expect(config.models.fixer).toBe('claude-fable-5-1');
  });

  it('is refused with the reason when malformed', () => {
    expect(() => parseLlmConfigFile('{ nope')).toThrow(/not valid JSON/);
    expect(() => parseLlmConfigFile(JSON.stringify({ llm: { costCapUsd: -1 } }))).toThrow(/costCapUsd/);
    expect(() => parseLlmConfigFile(JSON.stringify({ llm: { models: { janitor: 'x' } } }))).toThrow(
      /janitor/,
    );
    expect(() => parseLlmConfigFile(JSON.stringify({ llm: { apiKey: 'sk-secret' } }))).toThrow(/apiKey/);
  });
});
