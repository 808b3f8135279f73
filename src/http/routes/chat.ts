import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { startChat } from '../../domain/chat.js';
import type { ChatEngine } from '../../engine/index.js';
import { MODEL_IDS } from '../../engine/models.js';
import { CONVERSATION_SOURCES } from '../../store/conversation-sources.js';
import type { Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
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
  /** Set by Switchboard's own adapters; API callers are `API`. */
  source: z.enum(CONVERSATION_SOURCES).optional(),
});

export function chatRoutes(store: Store, engine: ChatEngine): Router<AuthState> {
  const router = new Router<AuthState>();

  router.post('/chat', async (ctx) => {
    const { stream, ...input } = parseInput(chatBody, ctx.request.body);
    const reply = await startChat(store, engine, ctx.state.account, input);
    const signal = abortedOnDisconnect(ctx);
    if (!stream) {
      ctx.body = { text: await reply.complete(signal) };
      return;
    }
    // The first piece is awaited before anything is sent, so a provider that fails at once is
    // still answered with the contract's 500 body rather than an empty 200.
    const pieces = reply.stream(signal)[Symbol.asyncIterator]();
    const first = await pieces.next();
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Accel-Buffering', 'no');
    const body = Readable.from(resume(first, pieces), { objectMode: false });
    // Past the headers a failure cannot become a status: cut the connection so the client sees
    // an incomplete response, not a clean but truncated reply.
    body.once('error', (error) => {
      ctx.log.error({ err: error }, 'chat stream failed');
      ctx.res.destroy();
    });
    ctx.body = body;
  });

  return router;
}

async function* resume(first: IteratorResult<string>, rest: AsyncIterator<string>): AsyncGenerator<string> {
  try {
    for (let step = first; !step.done; step = await rest.next()) yield step.value;
  } finally {
    await rest.return?.();
  }
}

function abortedOnDisconnect(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}
