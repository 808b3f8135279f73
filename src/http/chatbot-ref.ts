import type { Context } from 'koa';
import { z } from 'zod';
import { chatbotId, parseInput } from './validation.js';

/** The chatbot a request names, by its `chatbotId`. */
export const chatbotReference = z.object({ chatbotId });

/** The chatbot a DELETE names, by `chatbotId` in the query string or in the JSON body. */
export function chatbotIdFromQueryOrBody(ctx: Context): string {
  const body = typeof ctx.request.body === 'object' ? (ctx.request.body as object) : {};
  return parseInput(chatbotReference, { ...ctx.query, ...body }).chatbotId;
}
