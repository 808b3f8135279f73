import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { findOwnedChatbot } from '../../domain/owned-chatbot.js';
import type { Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { chatbotId, parseInput } from '../validation.js';

// GET /integrations/chatbots/{chatbotId}/prompts: what a chat adapter offers before and beside
// the answers (the greeting and the suggested questions), without the rest of the settings.

const promptsPath = z.object({ chatbotId });

export function chatbotPromptRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>({ prefix: '/integrations/chatbots' });

  router.get('/:chatbotId/prompts', async (ctx) => {
    const { chatbotId: id } = parseInput(promptsPath, ctx.params);
    const { settings } = await findOwnedChatbot(store, ctx.state.account, id);
    ctx.body = success({ initialMessages: settings.initialMessages, suggestedMessages: settings.suggestedMessages });
  });

  return router;
}

export const chatbotPromptPaths: ZodOpenApiPathsObject = {
  '/integrations/chatbots/{chatbotId}/prompts': {
    get: {
      operationId: 'getChatbotPrompts',
      tags: ['Integrations'],
      summary: 'A chatbot’s greeting and suggested questions, for chat adapters',
      requestParams: { path: promptsPath },
      responses: {
        200: jsonResponse(
          'The prompts',
          successOf(z.object({ initialMessages: z.array(z.string()), suggestedMessages: z.array(z.string()) })),
        ),
        ...keyedFailures(),
      },
    },
  },
};
