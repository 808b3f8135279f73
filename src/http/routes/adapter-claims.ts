import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { claimKey, isKeyHeld } from '../../domain/adapter-claims.js';
import type { Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { parseInput } from '../validation.js';

// POST /integrations/claims and GET /integrations/claims/{key}: the chat adapters' shared
// memory across instances (a message answered once, the threads the bot is in). Key-scoped.

const MAX_TTL_SECONDS = 30 * 24 * 60 * 60;

/** Printable, no spaces: adapters build keys such as `discord:message:{id}`. */
const keyField = z.string().regex(/^[\x21-\x7e]{1,256}$/);

const claimBody = z.strictObject({
  key: keyField,
  ttlSeconds: z.number().int().min(1).max(MAX_TTL_SECONDS),
});

const keyPath = z.object({ key: keyField });

export function adapterClaimRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>({ prefix: '/integrations/claims' });

  router.post('/', async (ctx) => {
    const input = parseInput(claimBody, ctx.request.body);
    ctx.body = success(await claimKey(store, ctx.state.account, input));
  });

  router.get('/:key', async (ctx) => {
    const { key } = parseInput(keyPath, ctx.params);
    ctx.body = success({ key, held: await isKeyHeld(store, ctx.state.account, key) });
  });

  return router;
}

const tags = ['Integrations'];

export const adapterClaimPaths: ZodOpenApiPathsObject = {
  '/integrations/claims': {
    post: {
      operationId: 'claimKey',
      tags,
      summary: 'Hold a key for a while unless it is held: one answer per message across adapter instances',
      requestBody: jsonRequest(claimBody),
      responses: {
        200: jsonResponse('Whether this call took the key', successOf(z.object({ key: z.string(), claimed: z.boolean() }))),
        ...keyedFailures(),
      },
    },
  },
  '/integrations/claims/{key}': {
    get: {
      operationId: 'isKeyHeld',
      tags,
      summary: 'Whether a key is held',
      requestParams: { path: keyPath },
      responses: {
        200: jsonResponse('Whether the key is held', successOf(z.object({ key: z.string(), held: z.boolean() }))),
        ...keyedFailures(),
      },
    },
  },
};
