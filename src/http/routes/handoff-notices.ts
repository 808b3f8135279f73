import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { claimNotices, completeNotice, handoffInThread } from '../../domain/handoff-notices.js';
import { handoffView } from '../../domain/webhook-events.js';
import { CONVERSATION_SOURCES } from '../../store/conversation-sources.js';
import type { HandoffNotice, Store } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { parseInput, platform, platformId } from '../validation.js';
import { handoffState, messageAuthor } from './handoffs.js';

// The chat adapters' side of a human handoff: the notices they post into the handoff channel
// (a request starts a thread; the person's messages and the closing follow in it) and to a
// person talking in Slack or Discord (what the team tells them), and the handoff a thread
// belongs to, for its replies and buttons. Key-scoped.

/** Workspaces a claim may name: a Slack process names its team, a Discord bot its servers. */
const MAX_CLAIM_WORKSPACES = 100;

const claimBody = z.strictObject({
  platform,
  limit: z.number().int().min(1).max(50).default(10),
  leaseSeconds: z.number().int().min(5).max(300).default(60),
  workspaceIds: z
    .array(platformId)
    .min(1)
    .max(MAX_CLAIM_WORKSPACES)
    .optional()
    .describe(
      'Only notices for these workspaces (Slack team ids, Discord server ids), and those of chatbots whose handoff names no workspace: what this adapter process can post. Without it, every workspace’s',
    ),
  replies: z
    .boolean()
    .default(false)
    .describe('Also `reply` notices, for the people talking to the chatbot on this platform (an adapter that posts them); without, the team’s notices alone'),
});

const thread = z
  .strictObject({
    channelId: platformId.describe('The handoff channel (Discord: the thread’s parent)'),
    threadId: platformId.describe('Slack: the root message’s ts; Discord: the thread channel’s id'),
  })
  .meta({ id: 'HandoffThread' });

const noticePath = z.object({ noticeId: z.string().min(1).max(64) });
const doneBody = z.strictObject({ thread: thread.optional() });
const threadQuery = z.object({ platform, ...thread.shape });

const notice = z
  .object({
    id: z.string(),
    kind: z
      .enum(['requested', 'message', 'closed', 'reply'])
      .describe('`requested`, `message`, `closed`: for the team’s handoff channel; `reply`: for the person, where they talk to the chatbot'),
    chatbotId: z.string(),
    chatbotName: z.string(),
    conversationId: z.string(),
    source: z.enum(CONVERSATION_SOURCES),
    channel: z
      .object({ workspaceId: z.string(), channelId: z.string() })
      .describe('Where the chatbot’s handoff settings send requests; `reply`: where the person talks (Discord: their channel or thread)'),
    thread: thread.nullable().describe('Null until the `requested` notice is done; `reply`: the person’s Slack thread (Discord: null)'),
    handoff: handoffState.describe('The handoff when the notice was made (`closed`: resolved or missed)'),
    created_at: z.iso.datetime(),
    transcript: z
      .array(
        z.object({
          role: z.enum(['user', 'assistant']),
          content: z.string(),
          author: messageAuthor.optional(),
        }),
      )
      .optional()
      .describe('`requested`: the conversation so far'),
    person: z
      .object({ name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() })
      .nullable()
      .optional()
      .describe('`requested`: the contact’s or lead’s details; null when unknown'),
    text: z.string().optional().describe('`message`: what the person wrote; `reply`: what the person is told'),
    author: messageAuthor.optional().describe('`reply`: the team member who wrote it (none for the hand-back and the offline message)'),
  })
  .meta({ id: 'HandoffNotice' });

const inThread = z.object({ chatbotId: z.string(), conversationId: z.string(), handoff: handoffState });

function noticeView(item: HandoffNotice): z.infer<typeof notice> {
  return {
    id: item.id,
    kind: item.kind,
    chatbotId: item.chatbotId,
    chatbotName: item.chatbotName,
    conversationId: item.conversationId,
    source: item.source,
    channel: { workspaceId: item.workspaceId, channelId: item.channelId },
    thread: item.thread,
    handoff: handoffView(item.handoff),
    created_at: item.createdAt.toISOString(),
    ...(item.transcript && { transcript: item.transcript }),
    ...(item.person !== undefined && { person: item.person }),
    ...(item.text !== undefined && { text: item.text }),
    ...(item.author && { author: item.author }),
  };
}

export function handoffNoticeRoutes(store: Store): Router<AuthState> {
  const router = new Router<AuthState>({ prefix: '/handoffs' });

  router.post('/notices/claim', async (ctx) => {
    const input = parseInput(claimBody, ctx.request.body);
    ctx.body = success((await claimNotices(store, ctx.state.account, input)).map(noticeView));
  });

  router.post('/notices/:noticeId/done', async (ctx) => {
    const { noticeId } = parseInput(noticePath, ctx.params);
    const input = parseInput(doneBody, ctx.request.body ?? {});
    const done = await completeNotice(store, ctx.state.account, noticeId, input.thread);
    ctx.body = success({ id: done.id, thread: done.thread });
  });

  router.get('/thread', async (ctx) => {
    const { platform: on, ...query } = parseInput(threadQuery, ctx.query);
    const found = await handoffInThread(store, ctx.state.account, on, query);
    ctx.body = success({ ...found, handoff: handoffView(found.handoff) });
  });

  return router;
}

const tags = ['Integrations'];

export const handoffNoticePaths: ZodOpenApiPathsObject = {
  '/handoffs/notices/claim': {
    post: {
      operationId: 'claimHandoffNotices',
      tags,
      summary: 'Lease the next handoff notices a chat adapter must post: requests, the person’s messages, closings, and what the team tells a person who talks in Slack or Discord',
      description:
        'Per conversation, only its oldest notice not yet done, and a `message` or `closed` one only once the `requested` one is done (its `thread` is then known). `reply` notices (a team member’s reply, the hand-back, the offline message; with `replies` only) are for the platform the person talks on (the conversation’s source `Slack` or `Discord`, whatever platform the team uses), in their own order: they wait for none of the team’s. A notice is leased to this caller for `leaseSeconds`; one not marked done by then is offered again. With `workspaceIds`, only the notices for those workspaces are considered: a `message` or `closed` notice goes to the workspace its `requested` one went to, a `reply` to the person’s (Discord direct messages: `dm`).',
      requestBody: jsonRequest(claimBody, { platform: 'slack', limit: 10, leaseSeconds: 60, workspaceIds: ['T0123'], replies: true }),
      responses: { 200: jsonResponse('The notices leased, oldest first', successOf(z.array(notice))), ...keyedFailures() },
    },
  },
  '/handoffs/notices/{noticeId}/done': {
    post: {
      operationId: 'completeHandoffNotice',
      tags,
      summary: 'Mark a notice posted; for a `requested` one, name the thread it started',
      description: 'The first thread recorded for a handoff stays: a later one (a notice posted twice) is not recorded. Marking a notice done again changes nothing.',
      requestParams: { path: noticePath },
      requestBody: { ...jsonRequest(doneBody, { thread: { channelId: 'C0123', threadId: '1712345678.000100' } }), required: false },
      responses: {
        200: jsonResponse('The notice, and its handoff’s thread', successOf(z.object({ id: z.string(), thread: thread.nullable() }))),
        ...keyedFailures(),
      },
    },
  },
  '/handoffs/thread': {
    get: {
      operationId: 'findHandoffByThread',
      tags,
      summary: 'The conversation whose handoff a thread is',
      description: '404 for any other thread, including that of an earlier handoff of the conversation: its replies are never relayed.',
      requestParams: { query: threadQuery },
      responses: { 200: jsonResponse('The conversation and its handoff', successOf(inThread)), ...keyedFailures() },
    },
  },
};
