import { z } from 'zod';
import { providerCatalogSchema, resolveApiKeys, type ProviderCatalog } from './engine/providers/catalog.js';

// Every environment variable Switchboard reads, parsed once. Nothing else reads process.env.

export const DEFAULT_DATABASE_URL = 'sqlite:./data/switchboard.db';
export const DEFAULT_CONTACTS_RATE_LIMIT_PER_MINUTE = 600;

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  PUBLIC_URL: optionalText,
  DATABASE_URL: optionalText,
  MONGODB_URI: optionalText,
  BOOTSTRAP_API_KEY: optionalText,
  CONTACTS_RATE_LIMIT_PER_MINUTE: positiveInt(DEFAULT_CONTACTS_RATE_LIMIT_PER_MINUTE),
  DEFAULT_MESSAGES_PER_MONTH: positiveInt(10_000),
  DEFAULT_MAX_CHATBOTS: positiveInt(100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MODEL_PROVIDERS: optionalText.pipe(providerCatalogSchema.optional()),
  MODEL_TIMEOUT_MS: positiveInt(60_000),
});

export type Config = {
  port: number;
  /** Public base address, for links and examples; defaults to http://localhost:PORT. */
  publicUrl: string | undefined;
  databaseUrl: string;
  bootstrapApiKey: string | undefined;
  contactsRateLimitPerMinute: number;
  defaultQuota: { messagesPerMonth: number; maxChatbots: number };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** LLM providers by model family (MODEL_PROVIDERS); unset means the offline responder answers. */
  modelProviders: ProviderCatalog | undefined;
  /** How long one call to a model provider may take, in milliseconds. */
  modelTimeoutMs: number;
};


export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const vars = parsed.data;
  return {
    port: vars.PORT,
    publicUrl: vars.PUBLIC_URL?.replace(/\/+$/, ''),
    databaseUrl: vars.DATABASE_URL ?? vars.MONGODB_URI ?? DEFAULT_DATABASE_URL,
    bootstrapApiKey: vars.BOOTSTRAP_API_KEY,
    contactsRateLimitPerMinute: vars.CONTACTS_RATE_LIMIT_PER_MINUTE,
    defaultQuota: {
      messagesPerMonth: vars.DEFAULT_MESSAGES_PER_MONTH,
      maxChatbots: vars.DEFAULT_MAX_CHATBOTS,
    },
    logLevel: vars.LOG_LEVEL,
    modelProviders: vars.MODEL_PROVIDERS && resolveApiKeys(vars.MODEL_PROVIDERS, (name) => env[name]),
    modelTimeoutMs: vars.MODEL_TIMEOUT_MS,
  };
}
