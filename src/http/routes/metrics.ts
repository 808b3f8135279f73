import { timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import { registry } from '../../metrics.js';

/** GET /metrics in Prometheus' text format; with a token, only for `Authorization: Bearer <token>`. */
export function metricsRoutes(token: string | undefined): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    if (token && !bearerMatches(ctx.get('Authorization'), token)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.body = { message: 'Unauthorized' };
      return;
    }
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  return router;
}

function bearerMatches(header: string, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
