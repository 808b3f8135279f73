import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { startChat } from '../../domain/chat.js';
import { invalidRequest, type OnBackgroundError } from '../../domain/errors.js';
import type { ChatEngine } from '../../engine/index.js';
import { MODEL_IDS } from '../../settings/models.js';
import { CONVERSATION_SOURCES } from '../../store/conversation-sources.js';
import type { MessageKind, Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { MESSAGE_ID_HEADER, MESSAGE_KIND_HEADER, sendReply } from '../reply.js';
import { jsonRequest, keyedFailures } from '../schemas/responses.js';
import { chatbotId, conversationId, parseInput } from '../validation.js';

// The Chat tag of API v1: POST /chat, answered whole as {text} or streamed as text/plain.

const message = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().trim().min(1).max(32_000),
});

const chatBody = z.object({
  chatbotId,
  messages: z
    .array(message)
    .min(1)
    .max(500)
    .refine((messages) => messages.at(-1)?.role === 'user', 'the last message must be the user’s'),
  conversationId: conversationId.optional(),
  contactId: z.string().trim().min(1).max(256).optional(),
  model: z.enum(MODEL_IDS).optional(),
  temperature: z.number().min(0).max(1).optional(),
  stream: z.boolean().default(false),
  /** Set by Switchboard's own adapters; API callers are `API`; `Playground` only from a console session. */
  source: z.enum(CONVERSATION_SOURCES).optional(),
});

export function chatRoutes(store: Store, engine: ChatEngine, onError: OnBackgroundError): Router<AuthState> {
  const router = new Router<AuthState>();

  router.post('/chat', async (ctx) => {
    const { stream, ...input } = parseInput(chatBody, ctx.request.body);
    if (input.source === 'Playground' && !ctx.state.consoleSession) {
      throw invalidRequest('the Playground source is the console’s');
    }
    const reply = await startChat(store, engine, ctx.state.account, input, onError);
    await sendReply(ctx, reply, stream);
  });

  return router;
}

export const chatPaths: ZodOpenApiPathsObject = {
  '/chat': {
    post: {
      operationId: 'chat',
      tags: ['Chat'],
      summary: 'Send the conversation so far to a chatbot and get its reply',
      description:
        'With a `conversationId` the exchange is saved, and the `X-Message-Id` header (an extension) names ' +
        'the reply’s message, for `POST /chatbots/{chatbotId}/messages/{messageId}/feedback`. `source` ' +
        '`Playground` is accepted from a console session only (an invalid request from a key). With ' +
        '`stream: true` the reply is streamed as plain text, flushed piece by piece.',
      requestBody: jsonRequest(chatBody, {
        chatbotId: 'V1StGXR8_Z5jdHi6B-myT',
        messages: [{ role: 'user', content: 'When are you open?' }],
        conversationId: 'c-42',
        stream: false,
      }),
      responses: {
        200: {
          description: 'The reply: `{text}`, or the streamed text when `stream` is true',
          content: {
            'application/json': { schema: z.object({ text: z.string() }), example: { text: 'We open at 9am and close at 5pm.' } },
            'text/plain': { schema: z.string() },
          },
          headers: {
            [MESSAGE_ID_HEADER]: {
              description:
                'With a `conversationId`: the id the reply is saved under (a streamed one once it is complete), ' +
                'as `get-conversations` shows it. Absent when nothing is saved.',
              schema: { type: 'string' },
            },
            [MESSAGE_KIND_HEADER]: {
              description:
                'Beside `X-Message-Id`, when it is known before the reply is sent: what the saved reply is, as ' +
                '`kind` in `get-conversations` marks it: `answer`, `decline` (also the decline that ends with the ' +
                'waiting message, handing the conversation to a person) or `handoff` (the waiting message). Every ' +
                'whole reply carries it; a streamed one only when it is the waiting message: a streamed answer or ' +
                'decline is told apart only at its end, after the headers, and is never `handoff`.',
              schema: { type: 'string', enum: ['answer', 'decline', 'handoff'] satisfies MessageKind[] },
            },
          },
        },
        ...keyedFailures('denied'),
      },
    },
  },
};
