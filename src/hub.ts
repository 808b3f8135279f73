import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { ensureDefaultAccount } from './domain/accounts.js';
import { createChatEngine } from './engine/index.js';
import { API_PREFIX, createApp, type NodeListener } from './http/app.js';
import { createConversationWatch } from './http/conversation-watch.js';
import { timeStoreQuery } from './metrics.js';
import { answerParserRefusals } from './http/parser-refusals.js';
import { drainer } from './shutdown.js';
import { openStore } from './store/index.js';
import type { Store } from './store/port.js';
import { timedStore } from './store/timed.js';

export type Hub = {
  store: Store;
  server: Server;
  /** Where the API answers, e.g. http://localhost:3000/api/v1. */
  apiUrl: string;
  /** Set only when this start created the first account; shown once, stored nowhere. */
  firstApiKey: string | undefined;
  /**
   * Stops: /readyz answers 503 at once, the requests in flight drain while `alongside` (the jobs,
   * the adapters) stops, then the store closes.
   */
  close(alongside?: () => Promise<unknown>): Promise<void>;
};

// Names the variable, never the key or its hash: logs are read by more people than keys are.
const BOOTSTRAP_KEY_REVOKED =
  'BOOTSTRAP_API_KEY names a key that was revoked, so it was not added again: set BOOTSTRAP_API_KEY to a new key, or unset it.';

/** Listeners served by the hub's own server besides the API (Slack's events in HTTP mode). */
export type HubMounts = { slack?: NodeListener };

/** Opens the store (creating schemas and indexes), ensures the default account, and listens. */
export async function startHub(config: Config, logger: Logger, mounts: HubMounts = {}): Promise<Hub> {
  const store = timedStore(await openStore(config.databaseUrl), timeStoreQuery);
  const { firstApiKey, bootstrapKeyRevoked } = await ensureDefaultAccount(store, config.defaultQuota, config.bootstrapApiKey);
  if (bootstrapKeyRevoked) logger.warn(BOOTSTRAP_KEY_REVOKED);
  const { providerFor, embedder } = await loadProviders(config);
  const retrieval = {
    cacheBytes: config.indexCacheBytes,
    embedder,
    onError: (error: unknown, what: string) => logger.warn({ err: error }, `retrieval: ${what} failed`),
  };
  const conversationWatch = createConversationWatch({ store, logger });
  let stopping = false;
  const engine = createChatEngine(store, { providerFor, retrieval, historyMessages: config.chatHistoryMessages });
  const app = createApp({
    store,
    logger,
    contactsRateLimitPerMinute: config.contactsRateLimitPerMinute,
    engine,
    slack: mounts.slack,
    webhookAllowPrivate: config.webhooks.allowPrivate,
    sourcesAllowPrivate: config.sources.allowPrivate,
    sourceLimits: config.sources,
    trustProxy: config.trustProxy,
    metricsToken: config.metricsToken,
    publicUrl: config.publicUrl,
    consoleSessionIdleHours: config.consoleSessionIdleHours,
    conversationWatch,
    stopping: () => stopping,
  });
  const server = app.listen(config.port);
  answerParserRefusals(server);
  const drain = drainer(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve).once('error', reject);
  });
  // The first question after a start would otherwise wait for the engine to load.
  void engine.retriever.warmUp().then(() => logger.info('chat engine loaded: the first question waits for nothing'));
  const { port } = server.address() as AddressInfo;
  const publicUrl = config.publicUrl ?? `http://localhost:${port}`;

  return {
    store,
    server,
    apiUrl: publicUrl + API_PREFIX,
    firstApiKey,
    async close(alongside = async () => {}) {
      stopping = true;
      // Live streams never finish by themselves: ended now, the browsers reconnect to another instance.
      conversationWatch.close();
      // At once, not one after the other: the stop fits a container's grace period (10 s by default).
      await Promise.all([alongside(), drain()]);
      await store.close();
    },
  };
}

/** The AI SDK is loaded only when a provider is configured: the offline responder needs none of it. */
async function loadProviders(config: Config) {
  const catalog = config.modelProviders;
  if (!catalog) return { providerFor: undefined, embedder: undefined };
  const providers = await import('./engine/providers/index.js');
  const timeout = { timeoutMs: config.modelTimeoutMs };
  return {
    providerFor: providers.createProviderResponders(catalog, { ...timeout, maxOutputTokens: config.modelMaxTokens }),
    embedder: catalog.embedding && providers.createEmbedder(catalog.embedding, timeout),
  };
}
