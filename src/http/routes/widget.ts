import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  findWidgetChatbot,
  findWidgetConversation,
  leaveWidgetHandoff,
  listedHosts,
  originAllowed,
  rateWidgetAnswer,
  requestWidgetHandoff,
  requireAllowedOrigins,
  startWidgetChat,
  submitWidgetLead,
  withinIpLimit,
} from '../../domain/widget.js';
import { WIDGET_MESSAGE_MAX } from '../../domain/widget-message.js';
import { updateSince } from '../../domain/widget-updates.js';
import { collectsLeads } from '../../domain/lead-capture.js';
import { handoffView } from '../../domain/webhook-events.js';
import { kindOf } from '../../domain/message-kinds.js';
import type { OnBackgroundError } from '../../domain/errors.js';
import { LANGUAGES } from '../../settings/languages.js';
import type { ChatEngine } from '../../engine/index.js';
import { isOpenHandoff, type Chatbot, type Conversation, type MessageKind, type StoredMessage, type Store } from '../../store/port.js';
import type { ConversationWatch } from '../conversation-watch.js';
import { openEventStream } from '../event-stream.js';
import { imageUrl } from '../image-url.js';
import { jsonBody, PUBLIC_JSON_LIMIT } from '../middleware/body.js';
import { sendReply } from '../reply.js';
import { failures, jsonRequest, jsonResponse, messageOf, textResponse } from '../schemas/responses.js';
import { chatbotId, parseInput } from '../validation.js';
import { widgetAssets, type WidgetAsset } from '../widget-assets.js';
import { handoffState, messageAuthor } from './handoffs.js';

// The website widget's public routes: no key, only what a visitor's browser may see. The embed
// script, the chat window (an iframe, or a full page), and the JSON and stream calls it makes.

/** Widget conversation ids are made by the visitor's browser: random, and marked as the widget's. */
const widgetConversationId = z.string().regex(/^wc_[A-Za-z0-9_-]{20,64}$/);
/**
 * The page that embeds the window, as the window sees it. None for the full page; an opaque
 * origin (`null`, a file:// page) counts as none, so only restricted chatbots refuse it.
 */
const hostOrigin = z.url({ protocol: /^https?$/ }).max(2_048).optional().catch(undefined);
const params = z.object({ chatbotId });
const conversationParams = params.extend({ conversationId: widgetConversationId });
const messageParams = conversationParams.extend({ messageId: z.string().min(1).max(64) });

const chatBody = z.object({
  conversationId: widgetConversationId,
  message: z.string().trim().min(1).max(WIDGET_MESSAGE_MAX),
  host: hostOrigin,
  /** The window's language: the conversation keeps it, and the hub's default texts there are said in it. */
  lang: z.enum(LANGUAGES).optional(),
});

const optionalField = (schema: z.ZodType<string>) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), schema.nullable().default(null));
const leadBody = z.object({
  conversationId: widgetConversationId,
  name: optionalField(z.string().trim().max(200)),
  email: optionalField(z.email().max(254)),
  phone: optionalField(z.string().trim().regex(/^\+?[\d\s().-]{6,20}$/)),
  host: hostOrigin,
});

/** The host page's origin: the query of reads, the body of the handoff request. */
const hostOnly = z.object({ host: hostOrigin });
/** The window's "Talk to a person": its language saves the request in the words the button showed, and the conversation keeps it. */
const handoffBody = hostOnly.extend({ lang: z.enum(LANGUAGES).optional() });
/** The visitor's 👍/👎, as the API's feedback takes it. */
const feedbackBody = hostOnly.extend({ feedback: z.enum(['up', 'down']) });
/** Where the stream starts: after this message (the last one the window shows). */
const eventsQuery = z.object({ after: z.string().max(64).optional() });

const widgetConfig = z.object({
  allowed: z.boolean(),
  name: z.string(),
  buttonColor: z.string(),
  alignChatButton: z.enum(['left', 'right']),
  autoOpenChatWindowAfter: z.number(),
  iconUrl: z.string().nullable(),
});
const widgetMessage = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  author: messageAuthor.optional().describe('A team member’s reply'),
  kind: z.enum(['decline', 'handoff']).optional().describe('A message of the chatbot’s that is not an answer, as `get-conversations` marks it'),
  feedback: z.enum(['up', 'down']).optional().describe('The visitor’s rating of it, once they gave one'),
});
const widgetHistory = z.object({
  messages: z.array(widgetMessage),
  handoff: handoffState.nullable().describe('The conversation’s latest handoff, if it was ever handed to a person'),
});
const widgetHandoff = z.object({
  handoff: handoffState,
  messages: z.array(widgetMessage).describe('What was saved: the request and the waiting message; none when a handoff was open already'),
});
const leftHandoff = z.object({ handoff: handoffState.nullable().describe('The conversation’s latest handoff, now closed; null when it had none') });
const ratedAnswer = z.object({ id: z.string(), feedback: z.enum(['up', 'down']) });
const LEAD_SAVED = 'Success';

/** The browser reconnects this soon after a stream ends (a hub restart, the lifetime below). */
const STREAM_RETRY_MS = 1_000;
/** A comment line this often keeps proxies from closing a quiet stream. */
const STREAM_HEARTBEAT_MS = 15_000;
/** A stream ends after this and the browser reconnects: each connection re-checks the chatbot is public. */
const STREAM_LIFETIME_MS = 10 * 60_000;

export function widgetRoutes(store: Store, engine: ChatEngine, onError: OnBackgroundError, watch: ConversationWatch): Router {
  const router = new Router({ prefix: '/widget' });
  // Anyone may post here: bodies as small as the widget sends.
  const publicBody = jsonBody(PUBLIC_JSON_LIMIT);

  router.get('/embed.js', async (ctx) => {
    const { embed } = await widgetAssets();
    // Site owners paste this URL once, so it cannot carry a hash: revalidate by ETag instead.
    serveAsset(ctx, embed, 'public, max-age=300, must-revalidate');
    ctx.set('Access-Control-Allow-Origin', '*');
  });

  router.get('/assets/:name', async (ctx) => {
    const { windowScript, windowStyles } = await widgetAssets();
    const asset = [windowScript, windowStyles].find((candidate) => assetName(candidate) === ctx.params.name);
    if (!asset) return;
    serveAsset(ctx, asset, 'public, max-age=31536000, immutable');
  });

  /** What the embed script needs to draw its button; a private chatbot shows nothing. */
  router.get('/chatbots/:chatbotId/config', async (ctx) => {
    // Read by the embed script from any site; a refusal too, so the script can tell it apart.
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'no-cache');
    const chatbot = await publicChatbot(store, ctx);
    const { host } = parseInput(hostOnly, ctx.query);
    const { styles } = chatbot.settings;
    ctx.body = {
      allowed: originAllowed(chatbot.settings, host),
      name: styles.displayName || chatbot.name,
      buttonColor: styles.buttonColor,
      alignChatButton: styles.alignChatButton,
      autoOpenChatWindowAfter: styles.autoOpenChatWindowAfter,
      iconUrl: await imageUrl(store, chatbot.id, 'icon'),
    } satisfies z.infer<typeof widgetConfig>;
  });

  /** The chat window: embedded by the script, or opened directly as a full-page chat. */
  router.get('/chatbots/:chatbotId', async (ctx) => {
    const chatbot = await publicChatbot(store, ctx);
    const { host } = parseInput(hostOnly, ctx.query);
    // A top-level visit has no embedding page, whatever the query claims.
    const embedded = ctx.get('Sec-Fetch-Dest') !== 'document';
    const { settings } = chatbot;
    const { windowScript, windowStyles } = await widgetAssets();
    const config = {
      chatbotId: chatbot.id,
      allowed: originAllowed(settings, embedded ? host : undefined),
      name: settings.styles.displayName || chatbot.name,
      theme: settings.styles.theme,
      userMessageColor: settings.styles.userMessageColor,
      initialMessages: settings.initialMessages,
      suggestedMessages: settings.suggestedMessages,
      profilePictureUrl: await imageUrl(store, chatbot.id, 'profile-picture'),
      leadForm: collectsLeads(settings) ? leadForm(settings.collectCustomerInformation) : null,
      handoff: settings.handoff.enabled ? { button: settings.handoff.onRequest, waitingMessage: settings.handoff.waitingMessage } : null,
    };
    ctx.set('Content-Security-Policy', windowPolicy(chatbot));
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = windowPage(config.name, JSON.stringify(config), assetName(windowScript), assetName(windowStyles));
  });

  router.get('/chatbots/:chatbotId/conversations/:conversationId', async (ctx) => {
    const { chatbotId: id, conversationId } = parseInput(conversationParams, ctx.params);
    const chatbot = await findWidgetChatbot(store, id);
    const conversation = await findWidgetConversation(store, chatbot, conversationId);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      messages: conversation.messages.map((message) => messageView(message, kindOf(message, chatbot))),
      handoff: conversation.handoff ? handoffView(conversation.handoff) : null,
    } satisfies z.infer<typeof widgetHistory>;
  });

  /** The window's "Talk to a person". */
  router.post('/chatbots/:chatbotId/conversations/:conversationId/handoff', publicBody, async (ctx) => {
    const { chatbotId: id, conversationId } = parseInput(conversationParams, ctx.params);
    const chatbot = await findWidgetChatbot(store, id);
    const { host, lang } = parseInput(handoffBody, ctx.request.body ?? {});
    requireAllowedOrigins(chatbot, foreignOrigins(ctx, host));
    if (!(await withinIpLimit(store, chatbot, ctx.ip))) return refuseOverLimit(ctx, chatbot);
    const { handoff, messages } = await requestWidgetHandoff(store, chatbot, conversationId, lang);
    ctx.body = { handoff: handoffView(handoff), messages: messages.map((message) => messageView(message)) } satisfies z.infer<typeof widgetHandoff>;
  });

  /** The window's "+" on a conversation a handoff has: the visitor leaves it, and the handoff ends. */
  router.post('/chatbots/:chatbotId/conversations/:conversationId/handoff/end', publicBody, async (ctx) => {
    const { chatbotId: id, conversationId } = parseInput(conversationParams, ctx.params);
    const chatbot = await findWidgetChatbot(store, id);
    const { host } = parseInput(hostOnly, ctx.request.body ?? {});
    requireAllowedOrigins(chatbot, foreignOrigins(ctx, host));
    if (!(await withinIpLimit(store, chatbot, ctx.ip, 'handoff-end'))) return refuseOverLimit(ctx, chatbot);
    const handoff = await leaveWidgetHandoff(store, chatbot, conversationId);
    ctx.body = { handoff: handoff ? handoffView(handoff) : null } satisfies z.infer<typeof leftHandoff>;
  });

  /** The conversation's new replies and handoff state, live, while a handoff is open. */
  router.get('/chatbots/:chatbotId/conversations/:conversationId/events', async (ctx) => {
    const { chatbotId: id, conversationId } = parseInput(conversationParams, ctx.params);
    const { after } = parseInput(eventsQuery, ctx.query);
    const chatbot = await findWidgetChatbot(store, id);
    const conversation = await findWidgetConversation(store, chatbot, conversationId);
    // The browser's record of the last event it received, when it reconnects, is the later one.
    followConversation(ctx, watch, conversation, ctx.get('Last-Event-ID') || after);
  });

  router.post('/chatbots/:chatbotId/chat', publicBody, async (ctx) => {
    const chatbot = await publicChatbot(store, ctx);
    const input = parseInput(chatBody, ctx.request.body);
    requireAllowedOrigins(chatbot, foreignOrigins(ctx, input.host));
    if (!(await withinIpLimit(store, chatbot, ctx.ip))) return refuseOverLimit(ctx, chatbot);
    const reply = await startWidgetChat(store, engine, chatbot, { conversationId: input.conversationId, message: input.message, lang: input.lang }, onError);
    // The window resumes its live stream after this message.
    await sendReply(ctx, reply, true);
  });

  /** The window's 👍/👎 under an answer of the visitor's own conversation. */
  router.post('/chatbots/:chatbotId/conversations/:conversationId/messages/:messageId/feedback', publicBody, async (ctx) => {
    const { chatbotId: id, conversationId, messageId } = parseInput(messageParams, ctx.params);
    const chatbot = await findWidgetChatbot(store, id);
    const { host, feedback } = parseInput(feedbackBody, ctx.request.body ?? {});
    requireAllowedOrigins(chatbot, foreignOrigins(ctx, host));
    // Counted before the answer is looked for: guessing at ids is rated too.
    if (!(await withinIpLimit(store, chatbot, ctx.ip, 'rating'))) return refuseOverLimit(ctx, chatbot);
    await rateWidgetAnswer(store, chatbot, { conversationId, messageId, feedback }, onError);
    ctx.body = { id: messageId, feedback } satisfies z.infer<typeof ratedAnswer>;
  });

  router.post('/chatbots/:chatbotId/leads', publicBody, async (ctx) => {
    const chatbot = await publicChatbot(store, ctx);
    const { host, ...lead } = parseInput(leadBody, ctx.request.body);
    requireAllowedOrigins(chatbot, foreignOrigins(ctx, host));
    if (!(await withinIpLimit(store, chatbot, ctx.ip, 'lead'))) return refuseOverLimit(ctx, chatbot);
    await submitWidgetLead(store, chatbot, lead);
    ctx.body = { message: LEAD_SAVED };
  });

  return router;
}

function refuseOverLimit(ctx: Context, chatbot: Chatbot): void {
  ctx.status = 429;
  ctx.body = { message: chatbot.settings.ipLimitMessage };
}

/** A message as the window shows it; `kind` as the message was marked, unless the caller read it otherwise. */
function messageView({ id, role, content, author, feedback, ...message }: StoredMessage, kind: MessageKind | undefined = message.kind): z.infer<typeof widgetMessage> {
  return { id, role, content, ...(author && { author }), ...(kind && kind !== 'answer' && { kind }), ...(feedback && { feedback }) };
}

/**
 * Streams the conversation's updates after `from`: `reply` events (each with its message's id)
 * and `handoff` events (the state, whenever it changed; null for none). The stream ends once
 * the handoff is over and its closing message sent, when the browser stops listening.
 */
function followConversation(ctx: Context, watch: ConversationWatch, first: Conversation, from: string | undefined): void {
  let cursor = from;
  let shownState: string | undefined;
  let ended = false;
  let unwatch = () => {};
  const stream = openEventStream(ctx, {
    retryMs: STREAM_RETRY_MS,
    heartbeatMs: STREAM_HEARTBEAT_MS,
    maxMs: STREAM_LIFETIME_MS,
    onEnd() {
      ended = true;
      unwatch();
    },
  });
  const send = (conversation: Conversation | undefined) => {
    if (!conversation) return stream.end();
    const update = updateSince(conversation, cursor, new Date());
    for (const reply of update.replies) stream.send({ event: 'reply', id: reply.id, data: messageView(reply) });
    cursor = update.cursor;
    // A closed state goes out only with its closing message: the window stops listening on it.
    if (isOpenHandoff(update.handoff) || update.settled) {
      const state = update.handoff ? handoffView(update.handoff) : null;
      if (JSON.stringify(state) !== shownState) {
        shownState = JSON.stringify(state);
        stream.send({ event: 'handoff', id: cursor, data: state });
      }
    }
    if (update.settled) stream.end();
  };
  send(first);
  if (!ended) unwatch = watch.watch(first.chatbotId, first.id, { read: send, end: stream.end });
}

function publicChatbot(store: Store, ctx: Context): Promise<Chatbot> {
  return findWidgetChatbot(store, parseInput(params, ctx.params).chatbotId);
}

/**
 * The origins a chat call must be allowed for: the embedding page the window reports, and the
 * request's Origin unless it is the hub's own (the window's fetches carry the hub's origin).
 */
function foreignOrigins(ctx: Context, host: string | undefined): (string | undefined)[] {
  const origin = ctx.get('Origin');
  return origin && !isOwnOrigin(ctx, origin) ? [host, origin] : [host];
}

/** By host alone: behind a TLS proxy without TRUST_PROXY, the request line says http where browsers say https. */
function isOwnOrigin(ctx: Context, origin: string): boolean {
  try {
    return new URL(origin).host === ctx.host;
  } catch {
    return false;
  }
}

function leadForm(fields: Chatbot['settings']['collectCustomerInformation']) {
  const active = (['name', 'email', 'phone'] as const).filter((field) => fields[field].active);
  return { title: fields.title, fields: active.map((field) => ({ field, label: fields[field].label })) };
}

/** frame-ancestors lets browsers render the window only inside listed sites (and their subdomains). */
function windowPolicy(chatbot: Chatbot): string {
  const { settings } = chatbot;
  const ancestors = settings.onlyAllowOnAddedDomains
    ? listedHosts(settings).flatMap((host) => ['http', 'https'].flatMap((scheme) => [`${scheme}://${host}:*`, `${scheme}://*.${host}:*`]))
    : ['*'];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    `frame-ancestors ${ancestors.length > 0 ? ancestors.join(' ') : "'none'"}`,
  ].join('; ');
}

function assetName(asset: WidgetAsset): string {
  return `window.${asset.hash}.${asset.type.startsWith('text/css') ? 'css' : 'js'}`;
}

function serveAsset(ctx: Context, asset: WidgetAsset, cacheControl: string): void {
  ctx.set('Cache-Control', cacheControl);
  ctx.set('X-Content-Type-Options', 'nosniff');
  // Koa counts a request fresh only with a 2xx status, and the default is 404.
  ctx.status = 200;
  ctx.etag = `"${asset.hash}"`;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.type = asset.type;
  ctx.body = asset.body;
}

/** The page shell; the window script builds everything from the JSON config (escaped for a script element). */
function windowPage(title: string, config: string, script: string, styles: string): string {
  const escape = (text: string) =>
    text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/widget/assets/${styles}">
<script id="switchboard-config" type="application/json">${config.replace(/</g, '\\u003c')}</script>
<script src="/widget/assets/${script}" defer></script>
</head>
<body></body>
</html>
`;
}

const tags = ['Widget'];
const overIpLimit = jsonResponse('Over the chatbot’s `ipLimit`: its `ipLimitMessage`', z.object({ message: z.string() }));

/** Public: no key. A private chatbot, or another account's view of one, is simply not found. */
export const widgetPaths: ZodOpenApiPathsObject = {
  '/widget/embed.js': {
    get: {
      operationId: 'widgetEmbedScript',
      tags,
      summary: 'The script a site pastes to show a chatbot’s button and window',
      security: [],
      responses: { 200: textResponse('The embed script', 'application/javascript'), 304: { description: 'Unchanged (ETag)' } },
    },
  },
  '/widget/assets/{name}': {
    get: {
      operationId: 'widgetAsset',
      tags,
      summary: 'The chat window’s script or styles, by content hash',
      security: [],
      requestParams: { path: z.object({ name: z.string() }) },
      responses: {
        200: textResponse('The asset', 'application/javascript', 'text/css'),
        304: { description: 'Unchanged (ETag)' },
        ...failures('notFound'),
      },
    },
  },
  '/widget/chatbots/{chatbotId}/config': {
    get: {
      operationId: 'widgetConfig',
      tags,
      summary: 'What the embed script needs to draw the button',
      security: [],
      requestParams: { path: params, query: hostOnly },
      responses: { 200: jsonResponse('The button', widgetConfig), ...failures('invalid', 'notFound') },
    },
  },
  '/widget/chatbots/{chatbotId}': {
    get: {
      operationId: 'widgetWindow',
      tags,
      summary: 'The chat window: embedded by the script, or a full-page chat',
      security: [],
      requestParams: { path: params, query: hostOnly },
      responses: {
        200: textResponse('The window', 'text/html'),
        ...failures('invalid', 'notFound'),
      },
    },
  },
  '/widget/chatbots/{chatbotId}/conversations/{conversationId}': {
    get: {
      operationId: 'widgetConversation',
      tags,
      summary: 'The visitor’s conversation so far, by the id their browser made',
      security: [],
      requestParams: { path: conversationParams },
      responses: { 200: jsonResponse('The messages', widgetHistory), ...failures('invalid', 'notFound') },
    },
  },
  '/widget/chatbots/{chatbotId}/conversations/{conversationId}/handoff': {
    post: {
      operationId: 'widgetHandoff',
      tags,
      summary: 'The window’s “Talk to a person”: hand the conversation (new or saved) to the team',
      description:
        'Only when the chatbot’s `handoff` is `enabled` and `onRequest` (else 400). Saves the request (“Talk to a person”, in the ' +
        'window’s `lang` when given: the words its button showed) and the ' +
        '`waitingMessage` (the default one in that `lang`, which the conversation keeps for the hand-back and the default `offlineMessage`), ' +
        'and opens a pending handoff as a request in words would; uses no message credit but counts against ' +
        '`ipLimit`. A handoff already open is answered as it is, saving nothing. Refused (403) on pages the domain list does not allow.',
      security: [],
      requestParams: { path: conversationParams },
      requestBody: jsonRequest(handoffBody),
      responses: {
        200: jsonResponse('The handoff and what was saved', widgetHandoff),
        ...failures('invalid', 'denied', 'notFound'),
        429: overIpLimit,
      },
    },
  },
  '/widget/chatbots/{chatbotId}/conversations/{conversationId}/handoff/end': {
    post: {
      operationId: 'widgetHandoffEnd',
      tags,
      summary: 'The window’s “+” on a handed-off conversation: the visitor leaves it, and its handoff ends',
      description:
        'An open (pending or active) handoff is resolved as the team’s hand-back resolves it: the chatbot’s hand-back message ' +
        'is saved, the team’s thread gets the closing notice, `handoff.resolved` goes out. A handoff closed already, or none, ' +
        'is answered as it is. Counts against `ipLimit` on a count of its own, apart from messages. Refused (403) on pages ' +
        'the domain list does not allow.',
      security: [],
      requestParams: { path: conversationParams },
      requestBody: jsonRequest(hostOnly),
      responses: { 200: jsonResponse('The handoff, closed', leftHandoff), ...failures('invalid', 'denied', 'notFound'), 429: overIpLimit },
    },
  },
  '/widget/chatbots/{chatbotId}/conversations/{conversationId}/events': {
    get: {
      operationId: 'widgetEvents',
      tags,
      summary: 'A handed-off conversation’s new replies and handoff state, live (Server-Sent Events)',
      description:
        'For the window while a handoff is open. Events: `reply` (`data` an assistant message as in the conversation above: a ' +
        'team member’s, with `author`, or the chatbot’s hand-back or offline message) and `handoff` (`data` the state, or null: ' +
        'sent first, then on each change). Every event’s `id` is a message id; a reconnect with `Last-Event-ID` (or `after`) ' +
        'resumes after that message, on any hub instance. The stream ends after the closed state and its closing message ' +
        '(stop listening then); it also ends after 10 minutes, and on shutdown, for the browser to reconnect. A comment line ' +
        'every 15 s keeps proxies from closing it.',
      security: [],
      requestParams: { path: conversationParams, query: eventsQuery, header: z.object({ 'Last-Event-ID': z.string().optional() }) },
      responses: { 200: textResponse('The event stream', 'text/event-stream'), ...failures('invalid', 'notFound') },
    },
  },
  '/widget/chatbots/{chatbotId}/chat': {
    post: {
      operationId: 'widgetChat',
      tags,
      summary: 'Ask the chatbot; the reply is streamed as plain text',
      security: [],
      requestParams: { path: params },
      requestBody: jsonRequest(chatBody),
      responses: {
        200: textResponse('The streamed reply', 'text/plain'),
        ...failures('invalid', 'denied', 'notFound'),
        429: overIpLimit,
      },
    },
  },
  '/widget/chatbots/{chatbotId}/conversations/{conversationId}/messages/{messageId}/feedback': {
    post: {
      operationId: 'widgetFeedback',
      tags,
      summary: 'The visitor’s 👍/👎 on an answer in their conversation',
      description:
        'As `POST /chatbots/{chatbotId}/messages/{messageId}/feedback`, for the window: only a message of the chatbot’s in this ' +
        'widget conversation (another conversation’s, chatbot’s or source’s, or the visitor’s own message, is 404); a later ' +
        'rating replaces an earlier one. Uses no message credit; ratings count against `ipLimit` per `ipLimitTimeframe` on a count ' +
        'of their own, apart from messages. Refused (403) on pages the domain list does not allow.',
      security: [],
      requestParams: { path: messageParams },
      requestBody: jsonRequest(feedbackBody),
      responses: { 200: jsonResponse('Recorded', ratedAnswer), ...failures('invalid', 'denied', 'notFound'), 429: overIpLimit },
    },
  },
  '/widget/chatbots/{chatbotId}/leads': {
    post: {
      operationId: 'widgetLead',
      tags,
      summary: 'Leave contact details from the window’s form',
      description: 'Counts against `ipLimit` on a count of its own, apart from messages. Refused (403) on pages the domain list does not allow.',
      security: [],
      requestParams: { path: params },
      requestBody: jsonRequest(leadBody),
      responses: { 200: jsonResponse('Saved', messageOf(LEAD_SAVED)), ...failures('invalid', 'denied', 'notFound'), 429: overIpLimit },
    },
  },
};
