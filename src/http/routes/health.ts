import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { Store } from '../../store/port.js';
import { jsonResponse } from '../schemas/responses.js';

/**
 * How long readiness waits for the store. A database that hangs rather than refuses (a stopped
 * server, a network partition) keeps a MongoDB ping waiting for the driver's timeouts, half a minute.
 */
const PING_TIMEOUT_MS = 2_000;

/**
 * `/healthz`: liveness, the process answers (restart it when this fails). `/readyz`: readiness,
 * the store answers too and the hub is not stopping (send no traffic while it does not); both name
 * the store's engine.
 */
export function healthRoutes(store: Store, stopping: () => boolean = () => false): Router {
  const router = livenessRoutes();
  router.get('/readyz', async (ctx) => {
    if (stopping()) {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', store: store.engine };
      return;
    }
    try {
      await answersWithin(store.ping(), PING_TIMEOUT_MS);
      ctx.body = { status: 'ready', store: store.engine };
    } catch (error) {
      ctx.log.error({ err: error }, 'readiness check: store unreachable');
      ctx.status = 503;
      ctx.body = { status: 'unavailable', store: store.engine };
    }
  });
  return router;
}

/** `/healthz` alone, for processes with no store to be ready with. */
export function livenessRoutes(): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  return router;
}

function answersWithin(answer: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

const engine = z.enum(['sqlite', 'mongodb']);

export const healthPaths: ZodOpenApiPathsObject = {
  '/healthz': {
    get: {
      operationId: 'liveness',
      tags: ['Operations'],
      summary: 'Liveness: the process answers',
      security: [],
      responses: { 200: jsonResponse('Alive', z.object({ status: z.literal('ok') })) },
    },
  },
  '/readyz': {
    get: {
      operationId: 'readiness',
      tags: ['Operations'],
      summary: 'Readiness: the store answers too',
      security: [],
      responses: {
        200: jsonResponse('Ready', z.object({ status: z.literal('ready'), store: engine })),
        503: jsonResponse('The store does not answer (within 2 s), or the hub is stopping', z.object({ status: z.literal('unavailable'), store: engine })),
      },
    },
  },
};
