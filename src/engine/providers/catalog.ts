import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { MODEL_IDS, modelFamily, type ModelId } from '../../settings/models.js';
import { Secret } from './secret.js';

// The provider catalog: which LLM provider answers for which model family, and the real model
// names behind the contract's identifiers. It comes from MODEL_PROVIDERS (see
// docs/model-providers.md); src/config.ts parses it with `providerCatalogSchema` and then reads
// the keys named by `apiKeyEnv` with `resolveApiKeys`.

/**
 * The most tokens a reply may take unless MODEL_MAX_TOKENS says otherwise: a long chat answer
 * is a few hundred; the bound stops a runaway reply from spending minutes and money.
 */
export const DEFAULT_MAX_OUTPUT_TOKENS = 1_024;

const PROVIDER_KINDS = ['openai', 'anthropic', 'openai-compatible'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Every identifier but `auto`, which only ever stands for one of these. */
export type ConcreteModelId = Exclude<ModelId, 'auto'>;
export const CONCRETE_MODEL_IDS = MODEL_IDS.filter((id): id is ConcreteModelId => id !== 'auto');
const FAMILIES = [...new Set(CONCRETE_MODEL_IDS.map(modelFamily))];

// A variable name, so that a key pasted here by mistake is rejected without being echoed.
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const familySchema = z.strictObject({
  provider: z.enum(PROVIDER_KINDS),
  baseURL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  apiKey: z.string().trim().min(1).optional(),
  apiKeyEnv: z.string().regex(ENV_NAME, 'must be the name of an environment variable').optional(),
  model: z.string().trim().min(1).optional(),
  models: z.record(z.string(), z.string().trim().min(1)).optional(),
});

type FamilySpec = z.output<typeof familySchema>;

// The embedding model for semantic retrieval: OpenAI's embeddings API, or a server speaking it.
const embeddingSchema = familySchema
  .pick({ baseURL: true, apiKey: true, apiKeyEnv: true })
  .extend({ provider: z.enum(['openai', 'openai-compatible']), model: z.string().trim().min(1) });

type EmbeddingSpec = z.output<typeof embeddingSchema>;

/** The catalog's JSON as given inline, or the path of a file holding it. */
const jsonSource = z.string().transform((source, ctx) => {
  let text = source;
  if (!/^[[{]/.test(source)) {
    try {
      text = readFileSync(source, 'utf8');
    } catch (error) {
      // The value is not repeated: it could be a key set here by mistake.
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      ctx.addIssue({ code: 'custom', message: `is neither JSON nor the path of a readable file (${code})` });
      return z.NEVER;
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // JSON.parse's own message quotes the text around the fault, which may be a key.
    ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
    return z.NEVER;
  }
});

const catalogShape = z
  .strictObject({
    default: z.enum(CONCRETE_MODEL_IDS, { error: 'must be one of the model identifiers (not auto)' }).optional(),
    families: z.record(z.string(), familySchema),
    embedding: embeddingSchema.optional(),
  })
  .superRefine((catalog, ctx) => {
    const families = Object.entries(catalog.families);
    if (families.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['families'], message: 'configure at least one model family' });
    }
    for (const [family, spec] of families) {
      for (const message of familyProblems(family, spec)) {
        ctx.addIssue({ code: 'custom', path: ['families', family], message });
      }
      for (const id of Object.keys(spec.models ?? {})) {
        if (!CONCRETE_MODEL_IDS.some((known) => known === id && modelFamily(known) === family)) {
          const path = ['families', family, 'models', id];
          ctx.addIssue({ code: 'custom', path, message: `is not a ${family} model identifier` });
        }
      }
    }
    for (const message of catalog.embedding ? connectionProblems(catalog.embedding) : []) {
      ctx.addIssue({ code: 'custom', path: ['embedding'], message });
    }
    if (catalog.default !== undefined && modelName(catalog.families, catalog.default) === undefined) {
      ctx.addIssue({ code: 'custom', path: ['default'], message: 'names a model no configured family provides' });
    }
  })
  .transform((catalog) => ({
    default: catalog.default ?? firstModel(catalog.families),
    families: catalog.families,
    embedding: catalog.embedding,
  }));

export const providerCatalogSchema = jsonSource.pipe(catalogShape);

/** The catalog as parsed, before the keys named by `apiKeyEnv` are read. */
export type ProviderCatalogSpec = z.output<typeof providerCatalogSchema>;

export type FamilyProvider = {
  provider: ProviderKind;
  baseURL: string | undefined;
  apiKey: Secret | undefined;
  /** The real model name for identifiers of the family that `models` does not list. */
  model: string | undefined;
  models: Record<string, string>;
};

export type EmbeddingProvider = {
  provider: EmbeddingSpec['provider'];
  baseURL: string | undefined;
  apiKey: Secret | undefined;
  model: string;
};

export type ProviderCatalog = {
  /** What `auto` means. */
  default: ConcreteModelId;
  families: Record<string, FamilyProvider>;
  /** The embedding model of semantic retrieval; without one, retrieval is lexical. */
  embedding: EmbeddingProvider | undefined;
};

/**
 * Reads the keys that families name by environment variable. `readEnv` is config.ts's view of
 * the environment; the message of the error thrown names the setting, never a value.
 */
export function resolveApiKeys(
  spec: ProviderCatalogSpec,
  readEnv: (name: string) => string | undefined,
): ProviderCatalog {
  const apiKey = (path: string, { apiKey: given, apiKeyEnv }: { apiKey?: string; apiKeyEnv?: string }) => {
    const key = apiKeyEnv === undefined ? given : readEnv(apiKeyEnv)?.trim();
    if (apiKeyEnv !== undefined && !key) {
      throw new Error(
        `Invalid configuration:\n  MODEL_PROVIDERS.${path}.apiKeyEnv: ` +
          'the environment variable it names is not set',
      );
    }
    return key ? new Secret(key) : undefined;
  };
  const families = Object.entries(spec.families).map(([family, settings]) => {
    const provider: FamilyProvider = {
      provider: settings.provider,
      baseURL: settings.baseURL,
      model: settings.model,
      models: settings.models ?? {},
      apiKey: apiKey(`families.${family}`, settings),
    };
    return [family, provider] as const;
  });
  const { embedding } = spec;
  return {
    default: spec.default,
    families: Object.fromEntries(families),
    embedding: embedding && {
      provider: embedding.provider,
      baseURL: embedding.baseURL,
      model: embedding.model,
      apiKey: apiKey('embedding', embedding),
    },
  };
}

function familyProblems(family: string, spec: FamilySpec): string[] {
  if (!FAMILIES.includes(family)) {
    return [`is not a model family; expected one of ${FAMILIES.join(', ')}`];
  }
  const problems = connectionProblems(spec);
  if (spec.model === undefined && Object.keys(spec.models ?? {}).length === 0) {
    problems.push('give model or models, the real model names to use');
  }
  return problems;
}

/** How a family or the embedding model reaches its provider. */
function connectionProblems(spec: Pick<FamilySpec, 'provider' | 'baseURL' | 'apiKey' | 'apiKeyEnv'>): string[] {
  const problems: string[] = [];
  if (spec.apiKey !== undefined && spec.apiKeyEnv !== undefined) {
    problems.push('give apiKey or apiKeyEnv, not both');
  }
  // Without a key of ours the OpenAI and Anthropic clients would read OPENAI_API_KEY or
  // ANTHROPIC_API_KEY behind config.ts's back; local servers usually need none.
  if (spec.provider !== 'openai-compatible' && spec.apiKey === undefined && spec.apiKeyEnv === undefined) {
    problems.push(`the ${spec.provider} provider needs apiKey or apiKeyEnv`);
  }
  if (spec.provider === 'openai-compatible' && spec.baseURL === undefined) {
    problems.push('the openai-compatible provider needs baseURL');
  }
  return problems;
}

/** The real model name configured for an identifier, if its family is configured and names one. */
export function modelName(
  families: Record<string, Pick<FamilySpec, 'model' | 'models'>>,
  id: ConcreteModelId,
): string | undefined {
  const family = families[modelFamily(id)];
  return family?.models?.[id] ?? family?.model;
}

/** The first configured family's first identifier with a model name (validation ensures one). */
function firstModel(families: Record<string, FamilySpec>): ConcreteModelId {
  const [family] = Object.keys(families);
  const id = CONCRETE_MODEL_IDS.find(
    (candidate) => modelFamily(candidate) === family && modelName(families, candidate) !== undefined,
  );
  if (id === undefined) throw new Error('unreachable: a validated catalog has a model');
  return id;
}
