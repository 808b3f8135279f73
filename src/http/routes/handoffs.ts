import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { replyInHandoff, resolveHandoff, takeHandoff } from '../../domain/handoff.js';
import { handoffView } from '../../domain/webhook-events.js';
import { HANDOFF_STATUSES, type Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { conversationPath, parseInput } from '../validation.js';

// The team's side of a human handoff: take it, reply in it, hand it back. The Slack and Discord
// adapters call these for their buttons and thread replies; any integrator may too. Key-scoped.

/** The team member's display name on the platform, and nothing else about them. */
const name = z.string().trim().min(1).max(200);
const takeBody = z.strictObject({ name });
const replyBody = z.strictObject({ name, text: z.string().trim().min(1).max(10_000) });

/** A message's author when a team member wrote it in a handoff. */
export const messageAuthor = z.object({ type: z.literal('human'), name: z.string() });

export const handoffState = z
  .object({
    status: z.enum(HANDOFF_STATUSES),
    requested_at: z.iso.datetime(),
    taken_by: z.string().nullable().describe('The team member’s display name once someone took it'),
  })
  .meta({ id: 'Handoff' });

export function handoffRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>({ prefix: '/chatbots/:chatbotId/conversations/:conversationId/handoff' });

  router.post('/take', async (ctx) => {
    const { chatbotId: id, conversationId } = parseInput(conversationPath, ctx.params);
    const input = parseInput(takeBody, ctx.request.body);
    ctx.body = success(handoffView(await takeHandoff(store, ctx.state.account, id, conversationId, input.name)));
  });

  router.post('/messages', async (ctx) => {
    const { chatbotId: id, conversationId } = parseInput(conversationPath, ctx.params);
    const input = parseInput(replyBody, ctx.request.body);
    ctx.body = success(handoffView(await replyInHandoff(store, ctx.state.account, { chatbotId: id, conversationId, ...input })));
  });

  router.post('/resolve', async (ctx) => {
    const { chatbotId: id, conversationId } = parseInput(conversationPath, ctx.params);
    ctx.body = success(handoffView(await resolveHandoff(store, ctx.state.account, id, conversationId)));
  });

  return router;
}

const tags = ['Conversations'];
const path = '/chatbots/{chatbotId}/conversations/{conversationId}/handoff';
const answered = (what: string) => ({ 200: jsonResponse(what, successOf(handoffState)), ...keyedFailures() });

export const handoffPaths: ZodOpenApiPathsObject = {
  [`${path}/take`]: {
    post: {
      operationId: 'takeHandoff',
      tags,
      summary: 'A team member takes a conversation handed to a person: it becomes active, theirs',
      description: 'One already taken stays with its taker. 404 when the conversation has no open (pending or active) handoff.',
      requestParams: { path: conversationPath },
      requestBody: jsonRequest(takeBody, { name: 'Ada' }),
      responses: answered('The handoff'),
    },
  },
  [`${path}/messages`]: {
    post: {
      operationId: 'replyInHandoff',
      tags,
      summary: 'A team member’s reply to the person, saved as an assistant message with `author: {type: "human", name}`',
      description:
        'The first reply takes a pending handoff; each one restarts the `idleMinutes` clock. 404 when the conversation has no open handoff.',
      requestParams: { path: conversationPath },
      requestBody: jsonRequest(replyBody, { name: 'Ada', text: 'Hi, I can help with your refund.' }),
      responses: answered('The handoff'),
    },
  },
  [`${path}/resolve`]: {
    post: {
      operationId: 'resolveHandoff',
      tags,
      summary: 'Hand the conversation back to the chatbot, which tells the person so (`handoff.resolved`)',
      requestParams: { path: conversationPath },
      responses: answered('The handoff, resolved'),
    },
  },
};
