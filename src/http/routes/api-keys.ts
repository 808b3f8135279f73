import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { apiKeyLabel, createApiKey, listApiKeys, revokeApiKey } from '../../domain/api-keys.js';
import type { ApiKeyRecord, Store } from '../../store/port.js';
import { isoTime } from '../iso-time.js';
import type { AuthState, KeyAccounts } from '../middleware/auth.js';
import { failures, jsonRequest, jsonResponse, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { parseInput } from '../validation.js';

// The caller's account's API keys: list, create (the key shown once), revoke.

const createBody = z.strictObject({ label: apiKeyLabel });
const keyPath = z.object({ id: z.string().min(1).max(64) });

const apiKeyItem = z
  .object({
    id: z.string(),
    label: z.string(),
    /** The key's first characters; null for keys stored before they were kept. */
    prefix: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'ApiKey' });
const newApiKey = apiKeyItem.extend({ key: z.string() }).meta({ id: 'NewApiKey' });

function toApiKeyItem(record: ApiKeyRecord): z.infer<typeof apiKeyItem> {
  return { id: record.id, label: record.label, prefix: record.prefix, created_at: isoTime(record.createdAt) };
}

export function apiKeyRoutes(store: Store, keys: KeyAccounts): Router<AuthState> {
  const router = new Router<AuthState>({ prefix: '/api-keys' });

  router.get('/', async (ctx) => {
    ctx.body = success((await listApiKeys(store, ctx.state.account)).map(toApiKeyItem));
  });

  router.post('/', async (ctx) => {
    const { label } = parseInput(createBody, ctx.request.body);
    const { record, apiKey } = await createApiKey(store, ctx.state.account, label);
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = success({ ...toApiKeyItem(record), key: apiKey });
  });

  router.delete('/:id', async (ctx) => {
    const { id } = parseInput(keyPath, ctx.params);
    const { consoleSession, apiKeyHash } = ctx.state;
    // A link session depends on no key; a key's session depends on its key.
    const callerKeyHash = consoleSession ? (consoleSession.apiKeyHash ?? undefined) : apiKeyHash;
    const revoked = await revokeApiKey(store, ctx.state.account, id, callerKeyHash);
    keys.forget(revoked.hash);
    ctx.body = success(toApiKeyItem(revoked));
  });

  return router;
}

const tags = ['Account'];
const example = { id: 'Vb3kQ9xZr2LmT8pWc1nHs', label: 'CI', prefix: 'sb_AbC1', created_at: '2026-11-25T18:00:00.000Z' };

export const apiKeyPaths: ZodOpenApiPathsObject = {
  '/api-keys': {
    get: {
      operationId: 'listApiKeys',
      tags,
      summary: 'The account’s API keys, oldest first: label and first characters, never the key',
      description: 'Keys created before labels were kept are labelled `Default`, with `prefix` null.',
      responses: {
        200: jsonResponse('The keys', successOf(z.array(apiKeyItem)), { message: 'Success', data: [example] }),
        ...failures('unauthorized'),
      },
    },
    post: {
      operationId: 'createApiKey',
      tags,
      summary: 'Issue another API key to the account; the answer is the only place the key appears',
      requestBody: jsonRequest(createBody, { label: 'CI' }),
      responses: {
        201: jsonResponse('The new key, shown this once', successOf(newApiKey), {
          message: 'Success',
          data: { ...example, key: 'sb_AbC1…' },
        }),
        ...failures('invalid', 'unauthorized'),
      },
    },
  },
  '/api-keys/{id}': {
    delete: {
      operationId: 'revokeApiKey',
      tags,
      summary: 'Revoke one of the account’s keys; console sessions signed in with it end too',
      description:
        'The account’s last key can be revoked only from a console session signed in with a one-time link ' +
        '(`npm run admin -- console-link`): anyone else would lock the account out, so that is refused with 403. ' +
        '`npm run admin -- create-key` issues a key to a keyless account.',
      requestParams: { path: keyPath },
      responses: {
        200: jsonResponse('The revoked key', successOf(apiKeyItem), { message: 'Success', data: example }),
        ...failures('unauthorized', 'notFound', 'denied'),
      },
    },
  },
};
