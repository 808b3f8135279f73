import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

// MODEL_PROVIDERS and MODEL_TIMEOUT_MS as src/config.ts reads them.

const KEY = 'sk-proj-catalog0test0key0000000000000000000000000';

const openai = { provider: 'openai', apiKey: KEY, models: { 'vendor1-4o-mini': 'gpt-4o-mini', 'vendor1-5-mini': 'gpt-5-mini' } };
const local = { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.1:8b' };

function providersFrom(catalog: unknown, env: Record<string, string> = {}) {
  return loadConfig({ ...env, MODEL_PROVIDERS: JSON.stringify(catalog) }).modelProviders;
}

/** The start-up error for a catalog; it must never show the key. */
function startupError(source: string, env: Record<string, string> = {}): string {
  let message: string | undefined;
  try {
    loadConfig({ ...env, MODEL_PROVIDERS: source });
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toBeDefined();
  expect(message).not.toContain(KEY);
  expect(message).not.toContain(KEY.slice(-12));
  return message as string;
}

describe('MODEL_PROVIDERS', () => {
  it('is optional: without it there is no catalog, and calls may take a minute', () => {
    const config = loadConfig({});
    expect(config.modelProviders).toBeUndefined();
    expect(config.modelTimeoutMs).toBe(60_000);
    expect(loadConfig({ MODEL_TIMEOUT_MS: '2500' }).modelTimeoutMs).toBe(2500);
    expect(config.modelMaxTokens).toBe(1_024);
    expect(loadConfig({ MODEL_MAX_TOKENS: '300' }).modelMaxTokens).toBe(300);
  });

  it('parses a JSON string; `auto` defaults to the first family’s first named model', () => {
    const catalog = providersFrom({ families: { vendor6: local, vendor1: openai } });
    expect(catalog?.default).toBe('vendor6-4-Scout-17B-16E-Instruct');
    expect(catalog?.families.vendor1).toMatchObject({ provider: 'openai', models: openai.models, model: undefined });
    expect(catalog?.families.vendor1?.apiKey?.reveal()).toBe(KEY);
    expect(catalog?.families.vendor6).toMatchObject({ ...local, apiKey: undefined, models: {} });
  });

  it('takes an explicit default', () => {
    expect(providersFrom({ default: 'vendor1-5-mini', families: { vendor6: local, vendor1: openai } })?.default).toBe('vendor1-5-mini');
  });

  it('reads the catalog from a file when given a path', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'switchboard-providers-')), 'providers.json');
    writeFileSync(path, JSON.stringify({ default: 'vendor1-4o-mini', families: { vendor1: openai } }));
    const catalog = loadConfig({ MODEL_PROVIDERS: path }).modelProviders;
    expect(catalog?.default).toBe('vendor1-4o-mini');
    expect(catalog?.families.vendor1?.apiKey?.reveal()).toBe(KEY);
  });

  it('reads a key from the environment variable apiKeyEnv names', () => {
    const anthropic = { provider: 'anthropic', apiKeyEnv: 'MY_ANTHROPIC_KEY', model: 'claude-sonnet-4-5' };
    const catalog = providersFrom({ families: { vendor2: anthropic } }, { MY_ANTHROPIC_KEY: KEY });
    expect(catalog?.families.vendor2?.apiKey?.reveal()).toBe(KEY);
    expect(catalog?.default).toBe('vendor2-opus-4-8');
  });

  it('never shows a key when the configuration is serialised or inspected', () => {
    const config = loadConfig({ MODEL_PROVIDERS: JSON.stringify({ families: { vendor1: openai } }) });
    expect(JSON.stringify(config)).not.toContain(KEY);
    expect(inspect(config, { depth: null })).not.toContain(KEY);
    expect(JSON.stringify(config)).toContain('"apiKey":"[redacted]"');
  });

  it.each([
    [
      'an unknown family',
      { families: { vendor42: openai } },
      'MODEL_PROVIDERS.families.vendor42: is not a model family',
    ],
    [
      'a bad provider',
      { families: { vendor1: { ...openai, provider: 'azure' } } },
      'MODEL_PROVIDERS.families.vendor1.provider',
    ],
    [
      'no families',
      { families: {} },
      'MODEL_PROVIDERS.families: configure at least one model family',
    ],
    [
      'an unknown field',
      { families: { vendor1: { ...openai, apikey: KEY } } },
      'MODEL_PROVIDERS.families.vendor1: Unrecognized key',
    ],
    [
      'a model of another family',
      { families: { vendor1: { ...openai, models: { 'vendor2-opus-4-8': 'x' } } } },
      'MODEL_PROVIDERS.families.vendor1.models.vendor2-opus-4-8: is not a vendor1 model identifier',
    ],
    [
      'an OpenAI family without a key',
      { families: { vendor1: { provider: 'openai', model: 'gpt-4o-mini' } } },
      'the openai provider needs apiKey or apiKeyEnv',
    ],
    [
      'both apiKey and apiKeyEnv',
      { families: { vendor1: { ...openai, apiKeyEnv: 'OPENAI_KEY' } } },
      'give apiKey or apiKeyEnv, not both',
    ],
    [
      'a local server without baseURL',
      { families: { vendor6: { provider: 'openai-compatible', model: 'llama3' } } },
      'the openai-compatible provider needs baseURL',
    ],
    [
      'a family without model names',
      { families: { vendor1: { provider: 'openai', apiKey: KEY } } },
      'give model or models',
    ],
    [
      'a baseURL that is no URL',
      { families: { vendor1: { ...openai, baseURL: KEY } } },
      'MODEL_PROVIDERS.families.vendor1.baseURL: must be an http(s) URL',
    ],
    [
      'a key pasted as apiKeyEnv',
      { families: { vendor1: { provider: 'openai', apiKeyEnv: KEY, model: 'gpt-4o' } } },
      'apiKeyEnv: must be the name of an environment variable',
    ],
    [
      'a default of an unconfigured family',
      { default: 'vendor3-2.5-pro', families: { vendor1: openai } },
      'MODEL_PROVIDERS.default: names a model no configured family provides',
    ],
    [
      'a default its family does not name',
      { default: 'vendor1-5-nano', families: { vendor1: openai } },
      'MODEL_PROVIDERS.default',
    ],
    [
      '`auto` as the default',
      { default: 'auto', families: { vendor1: openai } },
      'MODEL_PROVIDERS.default: must be one of the model identifiers (not auto)',
    ],
    [
      'a list',
      [openai],
      'MODEL_PROVIDERS: Invalid input: expected object',
    ],
  ])('stops start-up on %s, naming the problem', (_, catalog, expected) => {
    const message = startupError(JSON.stringify(catalog));
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain(expected);
  });

  it('stops start-up on invalid JSON without quoting it', () => {
    const message = startupError(`{"families": {"vendor1": {"provider": "openai", "apiKey": "${KEY}" "model": "gpt-4o"}}}`);
    expect(message).toContain('MODEL_PROVIDERS: is not valid JSON');
  });

  it('stops start-up on a file that cannot be read', () => {
    expect(startupError('/nonexistent/providers.json')).toContain(
      'MODEL_PROVIDERS: is neither JSON nor the path of a readable file (ENOENT)',
    );
    // Nor is the value repeated, in case it was a key set in the wrong variable.
    expect(startupError(KEY)).toContain('MODEL_PROVIDERS: is neither JSON nor the path');
  });

  it('stops start-up when the variable apiKeyEnv names is not set', () => {
    const catalog = { families: { vendor1: { provider: 'openai', apiKeyEnv: 'MISSING_KEY', model: 'gpt-4o' } } };
    expect(startupError(JSON.stringify(catalog))).toContain('MODEL_PROVIDERS.families.vendor1.apiKeyEnv: the environment variable it names is not set');
  });

  it('takes an optional embedding model, its key read like a family\'s', () => {
    expect(providersFrom({ families: { vendor6: local } })?.embedding).toBeUndefined();
    const embedding = { provider: 'openai', apiKeyEnv: 'EMBED_KEY', model: 'text-embedding-3-small' };
    const catalog = providersFrom({ families: { vendor6: local }, embedding }, { EMBED_KEY: KEY });
    expect(catalog?.embedding).toMatchObject({ provider: 'openai', baseURL: undefined, model: 'text-embedding-3-small' });
    expect(catalog?.embedding?.apiKey?.reveal()).toBe(KEY);
    const ollama = { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text' };
    expect(providersFrom({ families: { vendor6: local }, embedding: ollama })?.embedding).toMatchObject({ ...ollama, apiKey: undefined });
  });

  it('stops start-up on an embedding model it cannot reach or does not name', () => {
    const start = (embedding: unknown, env: Record<string, string> = {}) =>
      startupError(JSON.stringify({ families: { vendor6: local }, embedding }), env);
    expect(start({ provider: 'openai', model: 'text-embedding-3-small' })).toContain('MODEL_PROVIDERS.embedding: the openai provider needs apiKey or apiKeyEnv');
    expect(start({ provider: 'openai-compatible', model: 'nomic-embed-text' })).toContain('MODEL_PROVIDERS.embedding: the openai-compatible provider needs baseURL');
    expect(start({ provider: 'anthropic', apiKey: KEY, model: 'x' })).toContain('MODEL_PROVIDERS.embedding.provider');
    expect(start({ provider: 'openai', apiKey: KEY })).toContain('MODEL_PROVIDERS.embedding.model');
    expect(start({ provider: 'openai', apiKeyEnv: 'MISSING_KEY', model: 'm' })).toContain('MODEL_PROVIDERS.embedding.apiKeyEnv: the environment variable it names is not set');
  });

  it('reads INDEX_CACHE_MB in megabytes, 256 by default', () => {
    expect(loadConfig({}).indexCacheBytes).toBe(256 * 1024 * 1024);
    expect(loadConfig({ INDEX_CACHE_MB: '64' }).indexCacheBytes).toBe(64 * 1024 * 1024);
    expect(() => loadConfig({ INDEX_CACHE_MB: '0' })).toThrow(/INDEX_CACHE_MB/);
  });

  it('stops start-up on a bad MODEL_TIMEOUT_MS', () => {
    expect(() => loadConfig({ MODEL_TIMEOUT_MS: '0' })).toThrow(/MODEL_TIMEOUT_MS/);
  });
});
