import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { Logger } from 'pino';
import { DEFAULT_CONSOLE_SESSION_IDLE_HOURS, DEFAULT_CONTACTS_RATE_LIMIT_PER_MINUTE, HOUR_MS } from '../config.js';
import { DEFAULT_SOURCE_LIMITS, type SourceLimits } from '../domain/sources.js';
import { createChatEngine, type ChatEngine } from '../engine/index.js';
import type { Store } from '../store/port.js';
import { createConversationWatch, type ConversationWatch } from './conversation-watch.js';
import { keyAccounts, requireCaller, type AuthState } from './middleware/auth.js';
import { jsonBody, PUBLIC_JSON_LIMIT } from './middleware/body.js';
import { perKeyRateLimit } from './middleware/rate-limit.js';
import { failureBodies } from './middleware/errors.js';
import { requestLog } from './middleware/request-log.js';
import { skipRequestsAfterClose } from './lingering-close.js';
import { describeApi, type OpenApiDocument } from './openapi.js';
import { routeLookup } from './route-lookup.js';
import { accountPaths, accountRoutes } from './routes/account.js';
import { adapterClaimPaths, adapterClaimRoutes } from './routes/adapter-claims.js';
import { commandServerPaths, commandServerRoutes } from './routes/command-servers.js';
import { apiKeyPaths, apiKeyRoutes } from './routes/api-keys.js';
import { assetPaths, assetRoutes } from './routes/assets.js';
import { chatbotPromptPaths, chatbotPromptRoutes } from './routes/chatbot-prompts.js';
import { chatPaths, chatRoutes } from './routes/chat.js';
import { chatbotPaths, chatbotRoutes } from './routes/chatbots.js';
import { consoleSessionPaths, consoleSessionRoutes } from './routes/console-session.js';
import { consolePaths, consoleRoutes } from './routes/console.js';
import { contactPaths, contactRoutes } from './routes/contacts.js';
import { handoffNoticePaths, handoffNoticeRoutes } from './routes/handoff-notices.js';
import { handoffPaths, handoffRoutes } from './routes/handoffs.js';
import { conversationPaths, conversationRoutes } from './routes/conversations.js';
import { reviewPaths, reviewRoutes } from './routes/review.js';
import { customAttributePaths, customAttributeRoutes } from './routes/custom-attributes.js';
import { docsRoutes, openApiPaths, referencePaths } from './routes/docs.js';
import { healthPaths, healthRoutes } from './routes/health.js';
import { integrationPaths, integrationRoutes } from './routes/integrations.js';
import { leadPaths, leadRoutes } from './routes/leads.js';
import { metricsPaths, metricsRoutes } from './routes/metrics.js';
import { publicAssetPaths, publicAssetRoutes } from './routes/public-assets.js';
import { sourcePaths, sourceRoutes } from './routes/sources.js';
import { webhookPaths, webhookRoutes } from './routes/webhooks.js';
import { widgetPaths, widgetRoutes } from './routes/widget.js';

export const API_PREFIX = '/api/v1';
/** Where Slack delivers events and slash commands in HTTP mode. */
export const SLACK_EVENTS_PATH = '/slack/events';

/** A plain Node request listener (e.g. Bolt's HTTPReceiver `requestListener`). */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

export type AppDeps = {
  store: Store;
  logger: Logger;
  /** Per API key, on the contact and custom-attribute endpoints. */
  contactsRateLimitPerMinute?: number;
  /** Retrieval and responders; the offline responder alone when not given. */
  engine?: ChatEngine;
  /** Slack's receiver, served at POST /slack/events; it reads the raw body and answers itself. */
  slack?: NodeListener;
  /** Lets webhook URLs name private and loopback addresses (WEBHOOK_ALLOW_PRIVATE). */
  webhookAllowPrivate?: boolean;
  /** Lets website sources be on private and loopback addresses (SOURCES_ALLOW_PRIVATE). */
  sourcesAllowPrivate?: boolean;
  /** Take client IPs (the widget's ipLimit) from X-Forwarded-For: only behind a proxy that sets it. */
  trustProxy?: boolean;
  /** Bearer token GET /metrics requires (METRICS_TOKEN); open when unset. */
  metricsToken?: string;
  /** PUBLIC_URL: the console's origin and whether its cookies are Secure; the request's own when unset. */
  publicUrl?: string;
  /** CONSOLE_SESSION_IDLE_HOURS. */
  consoleSessionIdleHours?: number;
  /** Knowledge sources' limits (SOURCES_MAX_FILE_MB, SOURCES_MAX_CHARS_PER_CHATBOT). */
  sourceLimits?: SourceLimits;
  /** What the widget's live streams follow; the hub closes it on shutdown, so the streams end. */
  conversationWatch?: ConversationWatch;
  /** Whether the hub is stopping: /readyz answers 503 from then on, so a load balancer sends no more. */
  stopping?: () => boolean;
};

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = deps.trustProxy ?? false;
  // Failures are logged once, with their request id, by failureBodies().
  app.silent = true;

  app.use(skipRequestsAfterClose());
  app.use(requestLog(app, deps.logger));
  if (deps.slack) app.use(rawMount(SLACK_EVENTS_PATH, deps.slack));
  app.use(failureBodies());
  app.use(routeLookup(appRouters(deps)));
  return app;
}

/** Every router of the app. */
export function appRouters({
  store,
  logger,
  contactsRateLimitPerMinute = DEFAULT_CONTACTS_RATE_LIMIT_PER_MINUTE,
  engine = createChatEngine(store),
  webhookAllowPrivate = false,
  sourcesAllowPrivate = false,
  metricsToken,
  publicUrl,
  consoleSessionIdleHours = DEFAULT_CONSOLE_SESSION_IDLE_HOURS,
  sourceLimits = DEFAULT_SOURCE_LIMITS,
  conversationWatch = createConversationWatch({ store, logger }),
  stopping,
}: AppDeps): Router[] {
  const sessions = {
    idleMs: consoleSessionIdleHours * HOUR_MS,
    publicOrigin: publicUrl && new URL(publicUrl).origin,
    secureCookies: publicUrl ? publicUrl.startsWith('https:') : undefined,
  };
  // Each API feature is a router of its own behind the same key (or console session) check and
  // body parser; the console's sign-in, which needs neither, has only a parser of small bodies.
  const keys = keyAccounts(store);
  const keyCheck = requireCaller(store, keys, sessions);
  const body = jsonBody();
  const api = (feature: Router<AuthState>, ...guards: Middleware<AuthState>[]) =>
    new Router<AuthState>({ prefix: API_PREFIX }).use(keyCheck, body, ...guards, feature.routes()) as Router;
  const open = (feature: Router<AuthState>) =>
    new Router<AuthState>({ prefix: API_PREFIX }).use(jsonBody(PUBLIC_JSON_LIMIT), feature.routes()) as Router;
  // The contract limits the contact and custom-attribute endpoints per key.
  const contactsLimit = perKeyRateLimit(store, { scope: 'contacts', perMinute: contactsRateLimitPerMinute });
  const onError = (error: unknown, what: string) => logger.warn({ err: error }, `${what} failed`);

  return [
    healthRoutes(store, stopping),
    metricsRoutes(metricsToken),
    docsRoutes(API_PREFIX, apiDocument),
    publicAssetRoutes(store),
    widgetRoutes(store, engine, onError, conversationWatch),
    consoleRoutes(),
    open(consoleSessionRoutes(store, sessions)),
    api(accountRoutes(store)),
    api(apiKeyRoutes(store, keys)),
    api(chatbotRoutes(store, engine, sourceLimits)),
    api(sourceRoutes(store, engine, sourceLimits, { allowPrivate: sourcesAllowPrivate })),
    api(chatRoutes(store, engine, onError)),
    api(assetRoutes(store)),
    api(leadRoutes(store)),
    api(conversationRoutes(store, engine, onError, sourceLimits)),
    api(handoffRoutes(store)),
    api(handoffNoticeRoutes(store)),
    api(reviewRoutes(store, engine, sourceLimits)),
    api(integrationRoutes(store)),
    api(webhookRoutes(store, { allowPrivate: webhookAllowPrivate })),
    api(adapterClaimRoutes(store)),
    api(commandServerRoutes(store)),
    api(chatbotPromptRoutes(store)),
    api(contactRoutes(store), contactsLimit),
    api(customAttributeRoutes(store), contactsLimit),
  ];
}

let described: OpenApiDocument | undefined;

/** The OpenAPI document of every route above; built on first use, as it never changes. */
export function apiDocument(): OpenApiDocument {
  described ??= describeApi([
    {
      prefix: API_PREFIX,
      paths: [
        consoleSessionPaths,
        accountPaths,
        apiKeyPaths,
        chatbotPaths,
        sourcePaths,
        chatPaths,
        assetPaths,
        leadPaths,
        conversationPaths,
        handoffPaths,
        handoffNoticePaths,
        reviewPaths,
        integrationPaths,
        webhookPaths,
        adapterClaimPaths,
        commandServerPaths,
        chatbotPromptPaths,
        contactPaths,
        customAttributePaths,
        openApiPaths,
      ],
    },
    { prefix: '', paths: [healthPaths, metricsPaths, referencePaths, publicAssetPaths, widgetPaths, consolePaths] },
  ]);
  return described;
}

/** POST `path` goes, unparsed, to a Node listener that answers on its own (Slack checks signatures on the raw body). */
function rawMount(path: string, listener: NodeListener): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== path || ctx.method !== 'POST') return next();
    ctx.respond = false;
    listener(ctx.req, ctx.res);
  };
}
