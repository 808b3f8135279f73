import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { accountUsage } from '../../domain/accounts.js';
import type { Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { failures, jsonResponse, successOf } from '../schemas/responses.js';
import { success } from '../success.js';

// GET /account: the caller's account, its quota and this month's use of it.

const accountDetails = z
  .object({
    name: z.string(),
    quota: z.object({ messagesPerMonth: z.number().int(), maxChatbots: z.number().int() }),
    usage: z.object({ period: z.string().regex(/^\d{4}-\d{2}$/), messages: z.number().int() }),
  })
  .meta({ id: 'Account' });

export function accountRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>();

  router.get('/account', async (ctx) => {
    const { account } = ctx.state;
    const usage = await accountUsage(store, account);
    ctx.body = success({ name: account.name, quota: account.quota, usage } satisfies z.infer<typeof accountDetails>);
  });

  return router;
}

export const accountPaths: ZodOpenApiPathsObject = {
  '/account': {
    get: {
      operationId: 'getAccount',
      tags: ['Account'],
      summary: 'The caller’s account: its quota and the messages used this month (UTC)',
      responses: {
        200: jsonResponse('The account', successOf(accountDetails), {
          message: 'Success',
          data: {
            name: 'default',
            quota: { messagesPerMonth: 10000, maxChatbots: 100 },
            usage: { period: '2026-11', messages: 42 },
          },
        }),
        ...failures('unauthorized'),
      },
    },
  },
};
