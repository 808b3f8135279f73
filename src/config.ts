import { z } from 'zod';
import { DEFAULT_MAX_CHARS_PER_CHATBOT, DEFAULT_MAX_FILE_MB, type SourceSettings } from './domain/sources.js';
import { DEFAULT_HISTORY_MESSAGES } from './engine/index.js';
import { DEFAULT_MAX_READ_MEMORY_MB, DEFAULT_MAX_READ_SECONDS } from './sources/extract/index.js';
import { DEFAULT_MAX_OUTPUT_TOKENS, providerCatalogSchema, resolveApiKeys, type ProviderCatalog } from './engine/providers/catalog.js';

// Every environment variable Switchboard reads, parsed once. Nothing else reads process.env.

const DEFAULT_DATABASE_URL = 'sqlite:./data/switchboard.db';
export const DEFAULT_CONTACTS_RATE_LIMIT_PER_MINUTE = 600;
export const DEFAULT_CONSOLE_SESSION_IDLE_HOURS = 12;
export const HOUR_MS = 3_600_000;

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** Where the store is: refused here, with the other settings, rather than when it is opened. */
const databaseUrl = (schemes: RegExp, expected: string) => optionalText.pipe(z.string().regex(schemes, `expected ${expected}`).optional());
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** On for `1`, `true`, `yes` or `on` (any case); off when unset, empty, `0`, `false`, `no` or `off`. */
const flag = z
  .string()
  .optional()
  .transform((value) => value?.trim().toLowerCase() ?? '')
  .pipe(z.enum(['', '0', 'false', 'no', 'off', '1', 'true', 'yes', 'on']))
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

/** A Discord id: a decimal snowflake. */
const snowflake = z.string().regex(/^\d{1,20}$/, 'expected a Discord id (digits)');
/** Comma- or space-separated Discord ids. */
const snowflakeList = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(/[\s,]+/).filter(Boolean))
  .pipe(z.array(snowflake));

const DEFAULT_DISCORD_API_URL = 'https://discord.com/api';

export type DiscordConfig = {
  token: string;
  /** Checked against the application the token belongs to, when set. */
  applicationId: string | undefined;
  /**
   * The servers the bot serves (DISCORD_GUILD_IDS, else DISCORD_GUILD_ID's alone), where `/chatbot`
   * is registered: every other one is left. Undefined: every server, and `/chatbot` is global.
   */
  guildIds: string[] | undefined;
  /** Discord's REST base, without the version (`https://discord.com/api`). */
  apiUrl: string;
  /** Users who may administer besides members with Manage Server. */
  adminUserIds: string[];
};

const DEFAULT_SLACK_COMMAND = '/chatbot';

/** Comma- or space-separated Slack user ids. */
const slackIdList = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(/[\s,]+/).filter(Boolean))
  .pipe(z.array(z.string().regex(/^[UW][A-Z0-9]{2,}$/, 'expected Slack user ids (U…)')));
/** A slash command's name; the leading `/` may be left out. */
const slackCommand = z
  .string()
  .optional()
  .transform((value) => (value ? `/${value.replace(/^\/+/, '')}` : DEFAULT_SLACK_COMMAND))
  .pipe(z.string().regex(/^\/[a-z0-9_-]{1,31}$/, 'expected a slash command such as /chatbot'));

export type SlackConfig = {
  botToken: string;
  /** Socket mode (no public URL needed) when set. */
  appToken: string | undefined;
  /** Verifies requests to POST /slack/events (HTTP mode). */
  signingSecret: string | undefined;
  /** The Web API base (`https://slack.com/api/` when unset). */
  apiUrl: string | undefined;
  /** Users who may administer besides workspace admins and owners. */
  adminUserIds: string[];
  /** The slash command's name, e.g. `/chatbot`. */
  command: string;
};

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  // Links, the console's origin and its cookies are made from it: `hub.example.com` without a scheme would make none of them.
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' }).optional()),
  DATABASE_URL: databaseUrl(/^(sqlite:|mongodb(\+srv)?:\/\/)/, 'sqlite:PATH, sqlite::memory:, or a mongodb:// or mongodb+srv:// URL'),
  MONGODB_URI: databaseUrl(/^mongodb(\+srv)?:\/\//, 'a mongodb:// or mongodb+srv:// URL'),
  BOOTSTRAP_API_KEY: optionalText,
  CONTACTS_RATE_LIMIT_PER_MINUTE: positiveInt(DEFAULT_CONTACTS_RATE_LIMIT_PER_MINUTE),
  DEFAULT_MESSAGES_PER_MONTH: positiveInt(10_000),
  DEFAULT_MAX_CHATBOTS: positiveInt(100),
  LOG_LEVEL: optionalText
    .transform((value) => value?.toLowerCase())
    .pipe(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  MODEL_PROVIDERS: optionalText.pipe(providerCatalogSchema.optional()),
  MODEL_TIMEOUT_MS: positiveInt(60_000),
  MODEL_MAX_TOKENS: positiveInt(DEFAULT_MAX_OUTPUT_TOKENS),
  CHAT_HISTORY_MESSAGES: positiveInt(DEFAULT_HISTORY_MESSAGES),
  INDEX_CACHE_MB: positiveInt(256),
  HUB_URL: optionalText.pipe(z.url().optional()),
  HUB_API_KEY: optionalText,
  DISCORD_TOKEN: optionalText,
  DISCORD_APPLICATION_ID: optionalText.pipe(snowflake.optional()),
  DISCORD_GUILD_ID: optionalText.pipe(snowflake.optional()),
  DISCORD_GUILD_IDS: optionalText.pipe(snowflakeList),
  DISCORD_API_URL: optionalText.pipe(z.url().optional()),
  DISCORD_ADMIN_USER_IDS: optionalText.pipe(snowflakeList),
  SLACK_BOT_TOKEN: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_API_URL: optionalText.pipe(z.url().optional()),
  SLACK_ADMIN_USER_IDS: optionalText.pipe(slackIdList),
  SLACK_COMMAND: optionalText.pipe(slackCommand),
  WEBHOOK_ALLOW_PRIVATE: flag,
  SOURCES_ALLOW_PRIVATE: flag,
  SOURCES_MAX_FILE_MB: positiveInt(DEFAULT_MAX_FILE_MB),
  SOURCES_MAX_CHARS_PER_CHATBOT: positiveInt(DEFAULT_MAX_CHARS_PER_CHATBOT),
  SOURCES_MAX_READ_MEMORY_MB: positiveInt(DEFAULT_MAX_READ_MEMORY_MB),
  SOURCES_MAX_READ_SECONDS: positiveInt(DEFAULT_MAX_READ_SECONDS),
  WEBHOOK_TIMEOUT_MS: positiveInt(10_000),
  WEBHOOK_RETRY_HOURS: positiveInt(24),
  WEBHOOK_DISABLE_AFTER_HOURS: positiveInt(72),
  TRUST_PROXY: flag,
  METRICS_TOKEN: optionalText,
  // Fractions allowed: a test may end sessions after a few seconds.
  CONSOLE_SESSION_IDLE_HOURS: z.coerce.number().positive().max(24 * 365).default(DEFAULT_CONSOLE_SESSION_IDLE_HOURS),
});

export type Config = {
  port: number;
  /** PORT when it is set: the clock, Discord and socket-mode Slack serve /healthz and /metrics only then. */
  operationsPort: number | undefined;
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
  /** The most tokens a model may write in one reply (MODEL_MAX_TOKENS). */
  modelMaxTokens: number;
  /** How many of a conversation's latest messages a responder sees. */
  chatHistoryMessages: number;
  /** The bytes of retrieval indexes a process keeps in memory (INDEX_CACHE_MB). */
  indexCacheBytes: number;
  /** How a separately run adapter reaches the hub: its base URL and an API key (HUB_URL, HUB_API_KEY). */
  hubUrl: string | undefined;
  /** HUB_API_KEY, else BOOTSTRAP_API_KEY (a key the hub is known to hold). */
  hubApiKey: string | undefined;
  /** The Discord adapter; set when DISCORD_TOKEN is. */
  discord: DiscordConfig | undefined;
  /** The Slack adapter; set when SLACK_BOT_TOKEN is. */
  slack: SlackConfig | undefined;
  /** Bearer token GET /metrics requires; unset leaves it open. */
  metricsToken: string | undefined;
  /** Client IPs come from X-Forwarded-For (TRUST_PROXY): only behind a proxy that sets it. */
  trustProxy: boolean;
  webhooks: WebhookConfig;
  /** Console sessions end after this many hours unused (CONSOLE_SESSION_IDLE_HOURS). */
  consoleSessionIdleHours: number;
  /** Knowledge sources: file size and character limits, private addresses for websites. */
  sources: SourceSettings;
};

export type WebhookConfig = {
  /** Lets webhook URLs name loopback, private and link-local addresses (self-hosted receivers, tests). */
  allowPrivate: boolean;
  /** How long a receiver has to answer one delivery. */
  timeoutMs: number;
  /** How long an event is retried before it is given up. */
  retryForMs: number;
  /** How long a webhook may fail every delivery before it is disabled. */
  disableAfterMs: number;
};


/** A setting the operator gave that Switchboard cannot run with; its message names each variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const vars = parsed.data;
  return {
    port: vars.PORT,
    operationsPort: env.PORT?.trim() ? vars.PORT : undefined,
    publicUrl: vars.PUBLIC_URL?.replace(/\/+$/, ''),
    databaseUrl: vars.DATABASE_URL ?? vars.MONGODB_URI ?? DEFAULT_DATABASE_URL,
    bootstrapApiKey: vars.BOOTSTRAP_API_KEY,
    contactsRateLimitPerMinute: vars.CONTACTS_RATE_LIMIT_PER_MINUTE,
    defaultQuota: {
      messagesPerMonth: vars.DEFAULT_MESSAGES_PER_MONTH,
      maxChatbots: vars.DEFAULT_MAX_CHATBOTS,
    },
    logLevel: vars.LOG_LEVEL,
    modelProviders: modelProviders(vars, env),
    modelTimeoutMs: vars.MODEL_TIMEOUT_MS,
    modelMaxTokens: vars.MODEL_MAX_TOKENS,
    chatHistoryMessages: vars.CHAT_HISTORY_MESSAGES,
    indexCacheBytes: vars.INDEX_CACHE_MB * 1024 * 1024,
    hubUrl: vars.HUB_URL?.replace(/\/+$/, ''),
    hubApiKey: vars.HUB_API_KEY ?? vars.BOOTSTRAP_API_KEY,
    discord: vars.DISCORD_TOKEN
      ? {
          token: vars.DISCORD_TOKEN,
          applicationId: vars.DISCORD_APPLICATION_ID,
          guildIds: discordGuildIds(vars),
          apiUrl: (vars.DISCORD_API_URL ?? DEFAULT_DISCORD_API_URL).replace(/\/+$/, ''),
          adminUserIds: vars.DISCORD_ADMIN_USER_IDS,
        }
      : undefined,
    slack: slackConfig(vars),
    webhooks: {
      allowPrivate: vars.WEBHOOK_ALLOW_PRIVATE,
      timeoutMs: vars.WEBHOOK_TIMEOUT_MS,
      retryForMs: vars.WEBHOOK_RETRY_HOURS * HOUR_MS,
      disableAfterMs: vars.WEBHOOK_DISABLE_AFTER_HOURS * HOUR_MS,
    },
    sources: {
      allowPrivate: vars.SOURCES_ALLOW_PRIVATE,
      maxFileBytes: vars.SOURCES_MAX_FILE_MB * 1024 * 1024,
      maxCharsPerChatbot: vars.SOURCES_MAX_CHARS_PER_CHATBOT,
      maxReadMemoryBytes: vars.SOURCES_MAX_READ_MEMORY_MB * 1024 * 1024,
      maxReadMs: vars.SOURCES_MAX_READ_SECONDS * 1000,
    },
    trustProxy: vars.TRUST_PROXY,
    metricsToken: vars.METRICS_TOKEN,
    consoleSessionIdleHours: vars.CONSOLE_SESSION_IDLE_HOURS,
  };
}

/** MODEL_PROVIDERS with its keys read; an apiKeyEnv naming an unset variable is a setting's mistake too. */
function modelProviders(vars: z.infer<typeof envSchema>, env: NodeJS.ProcessEnv): ProviderCatalog | undefined {
  try {
    return vars.MODEL_PROVIDERS && resolveApiKeys(vars.MODEL_PROVIDERS, (name) => env[name]);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/**
 * The servers the Discord bot serves: DISCORD_GUILD_IDS, which must include DISCORD_GUILD_ID when
 * both are set (a setup from before the list would otherwise leave its own server); else the one
 * DISCORD_GUILD_ID names, as a single-server setup has it; else every server.
 */
function discordGuildIds(vars: z.infer<typeof envSchema>): string[] | undefined {
  const { DISCORD_GUILD_IDS: listed, DISCORD_GUILD_ID: single } = vars;
  if (listed.length === 0) return single === undefined ? undefined : [single];
  if (single !== undefined && !listed.includes(single)) {
    throw new ConfigError('Invalid configuration:\n  DISCORD_GUILD_IDS: must include DISCORD_GUILD_ID when both are set');
  }
  return listed;
}

/** Socket mode when SLACK_APP_TOKEN is set; otherwise HTTP, which needs the signing secret. */
function slackConfig(vars: z.infer<typeof envSchema>): SlackConfig | undefined {
  if (!vars.SLACK_BOT_TOKEN) return undefined;
  if (!vars.SLACK_APP_TOKEN && !vars.SLACK_SIGNING_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  SLACK_SIGNING_SECRET: required with SLACK_BOT_TOKEN unless SLACK_APP_TOKEN (socket mode) is set',
    );
  }
  return {
    botToken: vars.SLACK_BOT_TOKEN,
    appToken: vars.SLACK_APP_TOKEN,
    signingSecret: vars.SLACK_SIGNING_SECRET,
    apiUrl: vars.SLACK_API_URL,
    adminUserIds: vars.SLACK_ADMIN_USER_IDS,
    command: vars.SLACK_COMMAND,
  };
}

/** Where the owners' console answers: `{PUBLIC_URL}/console`, `http://localhost:PORT/console` without one. */
export function consoleUrl(config: Pick<Config, 'publicUrl' | 'port'>, port = config.port): string {
  return `${config.publicUrl ?? `http://localhost:${port}`}/console`;
}
