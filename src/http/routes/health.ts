import Router from '@koa/router';
import type { Store } from '../../store/port.js';

/** Liveness and readiness for load balancers: up only while the store answers. */
export function healthRoutes(store: Store): Router {
  const router = new Router();
  router.get('/healthz', async (ctx) => {
    try {
      await store.ping();
      ctx.body = { status: 'ok', store: store.engine };
    } catch (error) {
      ctx.req.log.error({ err: error }, 'health check: store unreachable');
      ctx.status = 503;
      ctx.body = { status: 'unavailable', store: store.engine };
    }
  });
  return router;
}
