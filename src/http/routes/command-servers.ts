import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { findCommandServers, saveCommandServers } from '../../domain/command-servers.js';
import type { Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { parseInput } from '../validation.js';

// GET and PUT /integrations/discord/{applicationId}/command-servers: the servers where the Discord
// adapter may have registered /chatbot, which it reads at start and records as they change.

/** A Discord id (a snowflake). */
const snowflake = z.string().regex(/^\d{1,20}$/);

/** More than the servers a bot can be listed for; a record is read whole at each start. */
const MAX_SERVERS = 1_000;

const applicationPath = z.object({ applicationId: snowflake });
const serversBody = z.strictObject({ serverIds: z.array(snowflake).max(MAX_SERVERS) });
const serversData = successOf(z.object({ applicationId: z.string(), serverIds: z.array(z.string()).nullable() }));

export function commandServerRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>({ prefix: '/integrations/discord/:applicationId/command-servers' });

  router.get('/', async (ctx) => {
    const { applicationId } = parseInput(applicationPath, ctx.params);
    ctx.body = success(await findCommandServers(store, ctx.state.account, applicationId));
  });

  router.put('/', async (ctx) => {
    const { applicationId } = parseInput(applicationPath, ctx.params);
    const { serverIds } = parseInput(serversBody, ctx.request.body);
    ctx.body = success(await saveCommandServers(store, ctx.state.account, applicationId, serverIds));
  });

  return router;
}

export const commandServerPaths: ZodOpenApiPathsObject = {
  '/integrations/discord/{applicationId}/command-servers': {
    get: {
      operationId: 'getCommandServers',
      tags: ['Integrations'],
      summary: "The servers where the Discord adapter may have registered /chatbot (null before it recorded any)",
      requestParams: { path: applicationPath },
      responses: { 200: jsonResponse('The servers recorded', serversData), ...keyedFailures() },
    },
    put: {
      operationId: 'putCommandServers',
      tags: ['Integrations'],
      summary: 'Records the servers where the Discord adapter may have registered /chatbot, in place of those before',
      requestParams: { path: applicationPath },
      requestBody: jsonRequest(serversBody),
      responses: { 200: jsonResponse('The servers now recorded', serversData), ...keyedFailures() },
    },
  },
};
