import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import type { OnBackgroundError } from '../../domain/errors.js';
import {
  answerSources,
  deleteConversation,
  listConversations,
  rateAnswer,
  reviseAnswer,
  type ListedConversation,
} from '../../domain/conversations.js';
import type { SourceLimits } from '../../domain/sources.js';
import { MAX_ANSWER_CHARS } from '../../domain/qa-limits.js';
import type { ChatEngine } from '../../engine/index.js';
import { CONVERSATION_SOURCES } from '../../store/conversation-sources.js';
import { handoffView } from '../../domain/webhook-events.js';
import { handoffState, messageAuthor } from './handoffs.js';
import { leadItem, toLeadItem } from './leads.js';
import { HANDOFF_STATUSES, type ConversationSource, type MessageKind, type Store } from '../../store/port.js';
import { isoTime } from '../iso-time.js';
import type { AuthState } from '../middleware/auth.js';
import { commaSeparated, listingQuery, parseListing } from '../schemas/listing.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { chatbotId, conversationPath, parseInput } from '../validation.js';

// The Conversations tag: GET /get-conversations, the hosted service's conversation history, and
// POST …/messages/{messageId}/feedback, a reader's 👍/👎 on an answer, and DELETE
// …/conversations/{conversationId}, erasing one (extensions).

/**
 * The names `filteredSources` takes: every source of the hosted reference, and Discord. Those this
 * hub never records (WhatsApp, Messenger, Instagram, Action preview) match no conversation.
 */
const FILTERABLE_SOURCES = [
  'API',
  'WhatsApp',
  'Messenger',
  'Instagram',
  'Slack',
  'Playground',
  'Action preview',
  'Widget or Iframe',
  'Discord',
] as const;

const recorded = new Set<string>(CONVERSATION_SOURCES);
const isRecorded = (source: string): source is ConversationSource => recorded.has(source);

/** A source's name in any case, with `_` or `-` for spaces (`widget_or_iframe`), as the hosted reference spells them. */
const spelling = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, ' ');
const sourceBySpelling = new Map<string, string>(FILTERABLE_SOURCES.map((source) => [spelling(source), source]));

/**
 * `filteredSources`, comma-separated and/or repeated, each one of the filterable sources (blank
 * parts are ignored), as the recorded sources they can match; absent (or blank) means every
 * source. An unknown name is an invalid request.
 */
const filteredSources = commaSeparated
  .transform((parts) => parts.map((part) => sourceBySpelling.get(spelling(part)) ?? part))
  .pipe(z.array(z.enum(FILTERABLE_SOURCES)))
  .transform((names) => (names.length === 0 ? undefined : [...new Set(names.filter(isRecorded))]))
  .optional();

/**
 * `handoffStatus` (an extension), comma-separated and/or repeated: only the conversations whose
 * current handoff stands so, e.g. `pending,active` for those waiting for the team or with it;
 * absent (or blank) means any conversation, handed off or not. An unknown status is an invalid request.
 */
const handoffStatus = commaSeparated
  .pipe(z.array(z.enum(HANDOFF_STATUSES)))
  .transform((statuses) => (statuses.length === 0 ? undefined : [...new Set(statuses)]))
  .optional();

const conversationsQuery = z.object({ chatbotId, filteredSources, handoffStatus });

const erasedConversation = z.object({ id: z.string(), chatbot_id: z.string() });

const FEEDBACK = ['up', 'down'] as const;

const feedbackPath = z.object({ chatbotId, messageId: z.string().min(1).max(64) });
const feedbackBody = z.strictObject({ feedback: z.enum(FEEDBACK) });
const ratedMessage = z.object({ id: z.string(), feedback: z.enum(FEEDBACK) });

export const messageSource = z
  .object({ id: z.string(), title: z.string(), url: z.string().optional().meta({ description: 'A web page’s address' }) })
  .meta({ id: 'MessageSource' });
const revisionBody = z.strictObject({ answer: z.string().trim().min(1).max(MAX_ANSWER_CHARS) });
const revision = z.object({ answer: z.string(), created_at: z.iso.datetime() });
const revisedMessage = z.object({ id: z.string(), revision });
const notAnAnswer = z.enum(['decline', 'handoff'] as const satisfies readonly MessageKind[]).meta({
  description:
    'A message of the chatbot’s that is not an answer: `decline` (the material does not cover the question; recorded as ' +
    'unanswered when given) or `handoff` (the waiting or offline message, or the hand-back, which answer no question); a 👎 on ' +
    'it records no unanswered question. Marked when the message is saved; one saved before Switchboard marked messages is ' +
    'read from its text. Absent on the chatbot’s answers, a person’s messages and a team member’s replies (see `author`).',
});

const conversationItem = z
  .object({
    id: z.string(),
    chatbot_id: z.string(),
    source: z.enum(CONVERSATION_SOURCES),
    contact_id: z.string().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    /** An extension: present once the conversation was handed to a person. */
    handoff: handoffState.optional(),
    lead: leadItem.optional().meta({
      description:
        'An extension: the lead collected in the conversation (the widget’s form, the chat, or `POST …/leads` with its ' +
        '`conversationId`), as `get-leads` shows it; absent when none.',
    }),
    messages: z.array(
      z.object({
        id: z.string(),
        role: z.enum(['user', 'assistant']),
        content: z.string(),
        created_at: z.iso.datetime(),
        /** An extension: a team member's reply in a human handoff names them. */
        author: messageAuthor.optional(),
        /** An extension: present on a message of the chatbot's that is not an answer. */
        kind: notAnAnswer.optional(),
        /** An extension: present once someone rated the answer. */
        feedback: z.enum(FEEDBACK).optional(),
        /** An extension: the knowledge sources an answer drew on; absent when none (a greeting). */
        sources: z.array(messageSource).optional(),
        /** An extension: the owner's correction, once there is one; `content` stays as it was. */
        revision: revision.optional(),
      }),
    ),
  })
  .meta({ id: 'Conversation' });

function toConversationItem(conversation: ListedConversation): z.infer<typeof conversationItem> {
  return {
    id: conversation.id,
    chatbot_id: conversation.chatbotId,
    source: conversation.source,
    contact_id: conversation.contactId,
    created_at: isoTime(conversation.createdAt),
    updated_at: isoTime(conversation.updatedAt),
    ...(conversation.handoff && { handoff: handoffView(conversation.handoff) }),
    ...(conversation.lead && { lead: toLeadItem(conversation.lead) }),
    messages: conversation.messages.map((message) => ({
      id: message.id,
      role: message.role,
      content: message.content,
      created_at: isoTime(message.createdAt),
      ...(message.author && { author: message.author }),
      ...(message.kind && message.kind !== 'answer' && { kind: message.kind }),
      ...(message.feedback && { feedback: message.feedback }),
      ...(message.sources && { sources: message.sources }),
      ...(message.revision && {
        revision: { answer: message.revision.answer, created_at: isoTime(message.revision.createdAt) },
      }),
    })),
  };
}

export function conversationRoutes(
  store: Store,
  engine: ChatEngine,
  onError: OnBackgroundError,
  limits: SourceLimits,
): Router<AuthState> {
  const router = new Router<AuthState>();

  router.get('/get-conversations', async (ctx) => {
    const { chatbotId: id, filteredSources: sources, handoffStatus: handoffStatuses } = parseInput(conversationsQuery, ctx.query);
    const { range, page } = parseListing(ctx.query);
    const conversations = await listConversations(store, ctx.state.account, id, { ...range, sources, handoffStatuses }, page);
    ctx.body = { data: conversations.map(toConversationItem) };
  });

  router.delete('/chatbots/:chatbotId/conversations/:conversationId', async (ctx) => {
    const { chatbotId: id, conversationId } = parseInput(conversationPath, ctx.params);
    await deleteConversation(store, ctx.state.account, id, conversationId);
    ctx.body = success({ id: conversationId, chatbot_id: id } satisfies z.infer<typeof erasedConversation>);
  });

  router.post('/chatbots/:chatbotId/messages/:messageId/feedback', async (ctx) => {
    const { chatbotId: id, messageId } = parseInput(feedbackPath, ctx.params);
    const { feedback } = parseInput(feedbackBody, ctx.request.body);
    await rateAnswer(store, ctx.state.account, id, messageId, feedback, onError);
    ctx.body = success({ id: messageId, feedback });
  });

  router.get('/chatbots/:chatbotId/messages/:messageId/sources', async (ctx) => {
    const { chatbotId: id, messageId } = parseInput(feedbackPath, ctx.params);
    ctx.body = success(await answerSources(store, ctx.state.account, id, messageId));
  });

  router.post('/chatbots/:chatbotId/messages/:messageId/revision', async (ctx) => {
    const { chatbotId: id, messageId } = parseInput(feedbackPath, ctx.params);
    const { answer } = parseInput(revisionBody, ctx.request.body);
    const revised = await reviseAnswer(store, ctx.state.account, id, messageId, answer, limits);
    await engine.retriever.prepare(id);
    ctx.body = success({ id: messageId, revision: { answer: revised.answer, created_at: isoTime(revised.createdAt) } });
  });

  return router;
}

export const conversationPaths: ZodOpenApiPathsObject = {
  '/get-conversations': {
    get: {
      operationId: 'getConversations',
      tags: ['Conversations'],
      summary: 'List a chatbot’s saved conversations with their messages, newest first',
      description:
        `\`filteredSources\` names sources comma-separated or repeated, in any case, with \`_\` or \`-\` for ` +
        `spaces: ${FILTERABLE_SOURCES.map((source) => `\`${source}\``).join(', ')}. Those Switchboard never ` +
        'records (WhatsApp, Messenger, Instagram, Action preview) match nothing; an unknown name is an invalid request. ' +
        '`handoffStatus` (an extension) keeps the conversations whose current handoff stands so, comma-separated or ' +
        `repeated: ${HANDOFF_STATUSES.map((status) => `\`${status}\``).join(', ')} (\`pending,active\`: those waiting for the ` +
        'team or with it, however old); it pages, and combines with the other filters, as the whole list does. An unknown ' +
        'status is an invalid request.',
      requestParams: {
        query: listingQuery.extend({ chatbotId, filteredSources: z.string().optional(), handoffStatus: z.string().optional() }),
      },
      responses: {
        200: jsonResponse('A page of conversations', z.object({ data: z.array(conversationItem) })),
        ...keyedFailures(),
      },
    },
  },
  '/chatbots/{chatbotId}/conversations/{conversationId}': {
    delete: {
      operationId: 'deleteConversation',
      tags: ['Conversations'],
      summary: 'Erase a saved conversation and everything kept of it (extension), e.g. on a person’s request under GDPR art. 17',
      description:
        'Removes its messages (their feedback and revisions), its handoff and handoff notices, the lead ' +
        'collected in it, its asks in unanswered questions (a group of questions it opened goes whole, as its question is the ' +
        'person’s words), and the webhook deliveries that carry any of these, delivered or not. Activity counts stay. What ' +
        'was already sent elsewhere stays there: messages posted to Slack or Discord, webhook events received. The widget ' +
        'answers for the conversation as for one never saved; a later message of the same `conversationId` starts it afresh. ' +
        'Another account’s conversation, like an unknown one, is not found and nothing changes.',
      requestParams: { path: conversationPath },
      responses: {
        200: jsonResponse('Erased', successOf(erasedConversation), { message: 'Success', data: { id: 'c-42', chatbot_id: 'bot-1' } }),
        ...keyedFailures(),
      },
    },
  },
  '/chatbots/{chatbotId}/messages/{messageId}/feedback': {
    post: {
      operationId: 'rateMessage',
      tags: ['Conversations'],
      summary: 'Record a reader’s 👍 (`up`) or 👎 (`down`) on an answer of a saved conversation',
      description:
        '`messageId` is an assistant message’s `id` as `get-conversations` shows it (and as the `X-Message-Id` ' +
        'header of a saved chat reply names it). A later rating replaces an earlier one. The answer’s first 👎 (only that one, however ' +
        'the rating changes after) records the question it answered as unanswered, unless a team member wrote the answer in a handoff (it has an `author`) or the handoff ' +
        'said it (its waiting or offline message, or the hand-back).',
      requestParams: { path: feedbackPath },
      requestBody: jsonRequest(feedbackBody, { feedback: 'up' }),
      responses: {
        200: jsonResponse('Recorded', successOf(ratedMessage), { message: 'Success', data: { id: '2', feedback: 'up' } }),
        ...keyedFailures(),
      },
    },
  },
  '/chatbots/{chatbotId}/messages/{messageId}/sources': {
    get: {
      operationId: 'getMessageSources',
      tags: ['Conversations'],
      summary: 'The knowledge sources an answer drew on (extension; [] for none)',
      description:
        'As `get-conversations` shows them on the message; the chat adapters read them after a streamed reply. A web page is cited once, under the best-ranked source that read it, when two website sources crawled it.',
      requestParams: { path: feedbackPath },
      responses: {
        200: jsonResponse('The sources', successOf(z.array(messageSource))),
        ...keyedFailures(),
      },
    },
  },
  '/chatbots/{chatbotId}/messages/{messageId}/revision': {
    post: {
      operationId: 'reviseMessage',
      tags: ['Conversations'],
      summary: 'Correct an answer: the chatbot answers the question it answered with the revision from then on',
      description:
        'Adds a Q&A source of the question the answer answered and the revision (a Q&A source of that very question, an ' +
        'earlier revision’s among them, gets the new answer instead). `messageId` names an assistant ' +
        'message (as for feedback); a user message or an unknown id is not found. A message that answered no question ' +
        '(a `handoff` message, a team member’s reply, an answer with no question before it) is refused with 400. ' +
        'The revision is shown on the message in `get-conversations`, whose `content` stays as it was; a later ' +
        'revision replaces an earlier one. A chatbot whose sources hold SOURCES_MAX_CHARS_PER_CHATBOT characters ' +
        'with the Q&A takes none: 403, nothing changed.',
      requestParams: { path: feedbackPath },
      requestBody: jsonRequest(revisionBody, { answer: 'We open at 8am on weekdays.' }),
      responses: {
        200: jsonResponse('Revised', successOf(revisedMessage), {
          message: 'Success',
          data: { id: '2', revision: { answer: 'We open at 8am on weekdays.', created_at: '2026-03-10T12:00:00.000Z' } },
        }),
        ...keyedFailures('denied'),
      },
    },
  },
};
