import { timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { registry } from '../../metrics.js';
import { jsonResponse, messageOf, textResponse } from '../schemas/responses.js';

const UNAUTHORIZED = 'Unauthorized';

/** GET /metrics in Prometheus' text format; with a token, only for `Authorization: Bearer <token>`. */
export function metricsRoutes(token: string | undefined): Router {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    if (token && !bearerMatches(ctx.get('Authorization'), token)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.body = { message: UNAUTHORIZED };
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

export const metricsPaths: ZodOpenApiPathsObject = {
  '/metrics': {
    get: {
      operationId: 'metrics',
      tags: ['Operations'],
      summary: 'Prometheus metrics, in its text format',
      description: 'With `METRICS_TOKEN` set, only for `Authorization: Bearer <METRICS_TOKEN>`.',
      security: [{}, { metricsToken: [] }],
      responses: {
        200: textResponse('The metrics', 'text/plain'),
        401: jsonResponse('A token is set and the request does not carry it', messageOf(UNAUTHORIZED)),
      },
    },
  },
};
