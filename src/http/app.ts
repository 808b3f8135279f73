import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { Logger } from 'pino';
import { DEFAULT_CONTACTS_RATE_LIMIT_PER_MINUTE } from '../config.js';
import { createChatEngine, type ChatEngine } from '../engine/index.js';
import type { Store } from '../store/port.js';
import { requireApiKey, type AuthState } from './middleware/auth.js';
import { jsonBody } from './middleware/body.js';
import { perKeyRateLimit } from './middleware/rate-limit.js';
import { failureBodies } from './middleware/errors.js';
import { requestLog } from './middleware/request-log.js';
import { adapterClaimRoutes } from './routes/adapter-claims.js';
import { assetRoutes } from './routes/assets.js';
import { chatbotPromptRoutes } from './routes/chatbot-prompts.js';
import { chatRoutes } from './routes/chat.js';
import { chatbotRoutes } from './routes/chatbots.js';
import { contactRoutes } from './routes/contacts.js';
import { conversationRoutes } from './routes/conversations.js';
import { customAttributeRoutes } from './routes/custom-attributes.js';
import { healthRoutes } from './routes/health.js';
import { integrationRoutes } from './routes/integrations.js';
import { leadRoutes } from './routes/leads.js';
import { metricsRoutes } from './routes/metrics.js';
import { publicAssetRoutes } from './routes/public-assets.js';
import { webhookRoutes } from './routes/webhooks.js';
import { widgetRoutes } from './routes/widget.js';

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
  /** Take client IPs (the widget's ipLimit) from X-Forwarded-For: only behind a proxy that sets it. */
  trustProxy?: boolean;
  /** Bearer token GET /metrics requires (METRICS_TOKEN); open when unset. */
  metricsToken?: string;
};

export function createApp({
  store,
  logger,
  contactsRateLimitPerMinute = DEFAULT_CONTACTS_RATE_LIMIT_PER_MINUTE,
  engine = createChatEngine(store),
  slack,
  webhookAllowPrivate = false,
  trustProxy = false,
  metricsToken,
}: AppDeps): Koa {
  const app = new Koa();
  app.proxy = trustProxy;
  // Failures are logged once, with their request id, by failureBodies().
  app.silent = true;

  // The contract limits the contact and custom-attribute endpoints per key.
  const rateLimited = new Router<AuthState>();
  rateLimited.use(perKeyRateLimit(store, { scope: 'contacts', perMinute: contactsRateLimitPerMinute }));
  for (const feature of [contactRoutes(store), customAttributeRoutes(store)]) {
    rateLimited.use(feature.routes());
  }

  const api = new Router<AuthState>({ prefix: API_PREFIX });
  api.use(requireApiKey(store), jsonBody());
  for (const feature of [
    chatbotRoutes(store, engine),
    chatRoutes(store, engine),
    assetRoutes(store),
    leadRoutes(store),
    conversationRoutes(store),
    integrationRoutes(store),
    webhookRoutes(store, { allowPrivate: webhookAllowPrivate }),
    adapterClaimRoutes(store),
    chatbotPromptRoutes(store),
    rateLimited,
  ]) {
    api.use(feature.routes());
  }

  app.use(requestLog(app, logger));
  if (slack) app.use(rawMount(SLACK_EVENTS_PATH, slack));
  app.use(failureBodies());
  for (const router of [healthRoutes(store), metricsRoutes(metricsToken), publicAssetRoutes(store), widgetRoutes(store, engine), api]) {
    app.use(router.routes());
  }
  return app;
}

/** POST `path` goes, unparsed, to a Node listener that answers on its own (Slack checks signatures on the raw body). */
function rawMount(path: string, listener: NodeListener): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== path || ctx.method !== 'POST') return next();
    ctx.respond = false;
    listener(ctx.req, ctx.res);
  };
}
