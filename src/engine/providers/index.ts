import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embedMany, type LanguageModel } from 'ai';
import type { Embedder } from '../embeddings.js';
import { modelFamily, type ModelId } from '../../settings/models.js';
import type { Responder } from '../responder.js';
import {
  CONCRETE_MODEL_IDS,
  DEFAULT_MAX_OUTPUT_TOKENS,
  modelName,
  type EmbeddingProvider,
  type FamilyProvider,
  type ProviderCatalog,
} from './catalog.js';
import { createLlmResponder } from './llm-responder.js';

// Which responder answers for a model identifier, from the provider catalog. Identifiers whose
// family is not configured get none, and the caller falls back to the offline responder.

export type { ProviderCatalog } from './catalog.js';
export { ProviderError } from './errors.js';

export type ProviderResponders = (model: ModelId) => Responder | undefined;

// Given explicitly: left unset, the SDK clients would read OPENAI_BASE_URL or ANTHROPIC_BASE_URL
// from the environment, which only src/config.ts may read.
const DEFAULT_BASE_URLS = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};

export type ResponderOptions = {
  timeoutMs: number;
  /** The most tokens one reply may take (MODEL_MAX_TOKENS). */
  maxOutputTokens?: number;
};

export function createProviderResponders(catalog: ProviderCatalog, options: ResponderOptions): ProviderResponders {
  // Every client and model object is built here, once; answering is a lookup.
  const responders = new Map<ModelId, Responder>();
  for (const [family, settings] of Object.entries(catalog.families)) {
    const languageModel = languageModelFactory(family, settings);
    for (const id of CONCRETE_MODEL_IDS.filter((candidate) => modelFamily(candidate) === family)) {
      const name = modelName(catalog.families, id);
      if (name === undefined) continue;
      const context = { family, provider: settings.provider, timeoutMs: options.timeoutMs };
      responders.set(id, createLlmResponder({ ...context, model: languageModel(name), maxOutputTokens: options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS }));
    }
  }
  return (model) => responders.get(model === 'auto' ? catalog.default : model);
}

/** The AI SDK client of one family; OpenAI's speaks Chat Completions (`.chat`), not Responses. */
function languageModelFactory(family: string, settings: FamilyProvider): (name: string) => LanguageModel {
  const apiKey = settings.apiKey?.reveal();
  switch (settings.provider) {
    case 'openai':
      return createOpenAI({ baseURL: settings.baseURL ?? DEFAULT_BASE_URLS.openai, apiKey }).chat;
    case 'anthropic':
      return createAnthropic({ baseURL: settings.baseURL ?? DEFAULT_BASE_URLS.anthropic, apiKey });
    case 'openai-compatible':
      // The catalog requires a baseURL for this provider. Streamed replies ask for their token
      // usage (stream_options.include_usage), as OpenAI's client does by itself.
      return createOpenAICompatible({ name: family, baseURL: settings.baseURL ?? '', apiKey, includeUsage: true }).chatModel;
  }
}

// Training can afford to wait out rate limits and server errors (the SDK backs off between tries);
// a question cannot: it is answered lexically instead.
const CHUNK_RETRIES = 4;

/** The embedding model of semantic retrieval, through the AI SDK's embedMany. */
export function createEmbedder(settings: EmbeddingProvider, options: { timeoutMs: number }): Embedder {
  const apiKey = settings.apiKey?.reveal();
  const model =
    settings.provider === 'openai'
      ? createOpenAI({ baseURL: settings.baseURL ?? DEFAULT_BASE_URLS.openai, apiKey }).embedding(settings.model)
      : createOpenAICompatible({ name: 'embedding', baseURL: settings.baseURL ?? '', apiKey }).embeddingModel(
          settings.model,
        );
  const embed = async (values: string[], maxRetries: number) => {
    const { embeddings } = await embedMany({
      model,
      values,
      maxRetries,
      abortSignal: AbortSignal.timeout(options.timeoutMs),
    });
    return embeddings.map((embedding) => Float32Array.from(embedding));
  };
  return {
    model: settings.model,
    embedChunks: (texts) => embed(texts, CHUNK_RETRIES),
    embedQuestion: async (text) => (await embed([text], 0))[0] ?? new Float32Array(),
  };
}
