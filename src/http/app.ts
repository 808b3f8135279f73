import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Store } from '../store/port.js';
import { requireApiKey, type AuthState } from './middleware/auth.js';
import { jsonBody } from './middleware/body.js';
import { failureBodies } from './middleware/errors.js';
import { requestLog } from './middleware/request-log.js';
import { assetRoutes } from './routes/assets.js';
import { chatbotRoutes } from './routes/chatbots.js';
import { healthRoutes } from './routes/health.js';
import { publicAssetRoutes } from './routes/public-assets.js';

export const API_PREFIX = '/api/v1';

export type AppDeps = { store: Store; logger: Logger };

export function createApp({ store, logger }: AppDeps): Koa {
  const app = new Koa();
  app.proxy = true;
  // Failures are logged once, with their request id, by failureBodies().
  app.silent = true;

  const api = new Router<AuthState>({ prefix: API_PREFIX });
  api.use(requireApiKey(store), jsonBody());
  for (const feature of [chatbotRoutes(store), assetRoutes(store)]) {
    api.use(feature.routes());
  }

  app.use(requestLog(logger));
  app.use(failureBodies());
  for (const router of [healthRoutes(store), publicAssetRoutes(store), api]) {
    app.use(router.routes());
  }
  return app;
}
