import Router from '@koa/router';
import type { Store } from '../../store/port.js';

/**
 * `/healthz`: liveness, the process answers (restart it when this fails). `/readyz`: readiness,
 * the store answers too (send no traffic while it does not); both name the store's engine.
 */
export function healthRoutes(store: Store): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    try {
      await store.ping();
      ctx.body = { status: 'ready', store: store.engine };
    } catch (error) {
      ctx.log.error({ err: error }, 'readiness check: store unreachable');
      ctx.status = 503;
      ctx.body = { status: 'unavailable', store: store.engine };
    }
  });
  return router;
}
