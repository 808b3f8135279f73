import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { accountAnalytics, chatbotAnalytics, type Analytics } from '../../domain/analytics.js';
import { isTimeZone } from '../../domain/integrations.js';
import { MAX_ANSWER_CHARS } from '../../domain/qa-limits.js';
import type { SourceLimits } from '../../domain/sources.js';
import { listUnanswered, resolveUnanswered, setUnansweredStatus } from '../../domain/unanswered.js';
import type { ChatEngine } from '../../engine/index.js';
import { CONVERSATION_SOURCES } from '../../store/conversation-sources.js';
import type { Store, UnansweredGroup } from '../../store/port.js';
import { isoTime } from '../iso-time.js';
import type { AuthState } from '../middleware/auth.js';
import { listingQuery, parseListing } from '../schemas/listing.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { chatbotId, parseInput } from '../validation.js';

// Review and improve (extensions): the questions a chatbot could not answer, grouped, with
// resolve and dismiss; and per-day activity of a chatbot or the whole account.

const STATUSES = ['open', 'resolved', 'dismissed'] as const;

const groupPath = z.object({ chatbotId, id: z.string().min(1).max(64) });
const statusQuery = z.object({ status: z.enum(STATUSES).optional() });
const resolveBody = z.strictObject({ answer: z.string().trim().min(1).max(MAX_ANSWER_CHARS) });

const unansweredItem = z
  .object({
    id: z.string(),
    question: z.string(),
    count: z.int(),
    first_asked_at: z.iso.datetime(),
    last_asked_at: z.iso.datetime(),
    status: z.enum(STATUSES),
    examples: z.array(
      z.object({
        conversationId: z.string().nullable(),
        messageId: z.string().nullable(),
        source: z.enum(CONVERSATION_SOURCES),
        asked_at: z.iso.datetime(),
      }),
    ),
  })
  .meta({ id: 'UnansweredQuestion' });

export function toUnansweredItem(group: UnansweredGroup): z.infer<typeof unansweredItem> {
  return {
    id: group.id,
    question: group.question,
    count: group.count,
    first_asked_at: isoTime(group.firstAskedAt),
    last_asked_at: isoTime(group.lastAskedAt),
    status: group.status,
    examples: group.examples.map((example) => ({
      conversationId: example.conversationId,
      messageId: example.messageId,
      source: example.source,
      asked_at: isoTime(example.askedAt),
    })),
  };
}

const date = z.iso.date();
const analyticsQuery = z.object({
  startDate: date.optional(),
  endDate: date.optional(),
  timezone: z.string().refine(isTimeZone, 'not an IANA time zone').optional(),
});

const counters = {
  conversations: z.int(),
  messages: z.object({ user: z.int(), assistant: z.int() }),
  credits: z.int(),
  bySource: z.object(Object.fromEntries(CONVERSATION_SOURCES.map((source) => [source, z.int()]))),
  feedback: z.object({ up: z.int(), down: z.int() }),
  declined: z.int(),
  leads: z.int(),
};
const analyticsData = z
  .object({ days: z.array(z.object({ date, ...counters })), totals: z.object(counters) })
  .meta({ id: 'Analytics' });

export function reviewRoutes(store: Store, engine: ChatEngine, limits: SourceLimits): Router<AuthState> {
  const router = new Router<AuthState>();

  router.get('/chatbots/:chatbotId/unanswered', async (ctx) => {
    const { chatbotId: id } = parseInput(z.object({ chatbotId }), ctx.params);
    const { status } = parseInput(statusQuery, ctx.query);
    const { range, page } = parseListing(ctx.query);
    const { groups, total } = await listUnanswered(store, ctx.state.account, id, { ...range, status }, page);
    ctx.body = { ...success(groups.map(toUnansweredItem)), total };
  });

  router.post('/chatbots/:chatbotId/unanswered/:id/resolve', async (ctx) => {
    const { chatbotId: id, id: groupId } = parseInput(groupPath, ctx.params);
    const { answer } = parseInput(resolveBody, ctx.request.body);
    const resolved = await resolveUnanswered(store, ctx.state.account, id, groupId, answer, limits);
    await engine.retriever.prepare(id);
    ctx.body = success(toUnansweredItem(resolved));
  });

  router.post('/chatbots/:chatbotId/unanswered/:id/dismiss', async (ctx) => {
    const { chatbotId: id, id: groupId } = parseInput(groupPath, ctx.params);
    ctx.body = success(toUnansweredItem(await setUnansweredStatus(store, ctx.state.account, id, groupId, 'dismissed')));
  });

  router.get('/chatbots/:chatbotId/analytics', async (ctx) => {
    const { chatbotId: id } = parseInput(z.object({ chatbotId }), ctx.params);
    ctx.body = success<Analytics>(await chatbotAnalytics(store, ctx.state.account, id, parseInput(analyticsQuery, ctx.query)));
  });

  router.get('/analytics', async (ctx) => {
    ctx.body = success<Analytics>(await accountAnalytics(store, ctx.state.account, parseInput(analyticsQuery, ctx.query)));
  });

  return router;
}

const analyticsDescription =
  'Days run from midnight to midnight in `timezone` (an IANA name, UTC by default); `startDate` and ' +
  '`endDate` (`YYYY-MM-DD`, inclusive) default to the 30 days ending today, at most 366 days. Every day ' +
  'of the range is present, with zeros when nothing happened. `conversations` counts those started that ' +
  'day (`bySource` by where), `messages` the saved ones, `credits` replies given, `declined` replies that ' +
  'declined, `feedback` the ratings of that day’s answers, `leads` new leads. Counted as messages are ' +
  'saved, per hour: in a zone offset by a half or quarter hour, a day starts at the first whole UTC hour after midnight.';

export const reviewPaths: ZodOpenApiPathsObject = {
  '/chatbots/{chatbotId}/unanswered': {
    get: {
      operationId: 'listUnansweredQuestions',
      tags: ['Review'],
      summary: 'Questions the chatbot declined or whose answer was rated 👎, grouped by meaning',
      description:
        'A group’s `question` is the first one asked; paraphrases and near-duplicates count into it. Most ' +
        'asked first, ties by `last_asked_at` (newest first), then `id`. `startDate`/`endDate` bound ' +
        '`last_asked_at`; `status` filters (any when absent). `examples` are the latest five asks; their ids ' +
        'are null for a reply that was not saved.',
      requestParams: { path: z.object({ chatbotId }), query: listingQuery.extend(statusQuery.shape) },
      responses: {
        200: jsonResponse('A page of groups', successOf(z.array(unansweredItem)).extend({ total: z.int() })),
        ...keyedFailures(),
      },
    },
  },
  '/chatbots/{chatbotId}/unanswered/{id}/resolve': {
    post: {
      operationId: 'resolveUnansweredQuestion',
      tags: ['Review'],
      summary: 'Answer a group of unanswered questions and mark it resolved',
      description:
        'Adds a Q&A source of the group’s question and the answer (the chatbot answers it, and paraphrases, from then on); ' +
        'a Q&A source of that very question gets the new answer instead. ' +
        'Asked again and still not answered, a resolved group opens again (same `id`, its count growing). ' +
        'A chatbot whose sources hold SOURCES_MAX_CHARS_PER_CHATBOT characters with the Q&A takes none: 403, the group left open.',
      requestParams: { path: groupPath },
      requestBody: jsonRequest(resolveBody, { answer: 'Refunds are paid within 14 days of the return.' }),
      responses: { 200: jsonResponse('The group', successOf(unansweredItem)), ...keyedFailures('denied') },
    },
  },
  '/chatbots/{chatbotId}/unanswered/{id}/dismiss': {
    post: {
      operationId: 'dismissUnansweredQuestion',
      tags: ['Review'],
      summary: 'Set a group of unanswered questions aside',
      description: 'Asked again and still not answered, a dismissed group opens again (same `id`, its count growing).',
      requestParams: { path: groupPath },
      responses: { 200: jsonResponse('The group', successOf(unansweredItem)), ...keyedFailures() },
    },
  },
  '/chatbots/{chatbotId}/analytics': {
    get: {
      operationId: 'chatbotAnalytics',
      tags: ['Review'],
      summary: 'A chatbot’s activity per day',
      description: analyticsDescription,
      requestParams: { path: z.object({ chatbotId }), query: analyticsQuery },
      responses: { 200: jsonResponse('Days and totals', successOf(analyticsData)), ...keyedFailures() },
    },
  },
  '/analytics': {
    get: {
      operationId: 'accountAnalytics',
      tags: ['Review'],
      summary: 'The whole account’s activity per day',
      description: analyticsDescription,
      requestParams: { query: analyticsQuery },
      responses: { 200: jsonResponse('Days and totals', successOf(analyticsData)), ...keyedFailures() },
    },
  },
};
