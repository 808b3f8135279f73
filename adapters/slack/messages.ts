import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs, webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { ChatMessage } from '../hub-client.js';
import { HUB_UNAVAILABLE, type InboundMessage, type Relay } from '../relay.js';
import { RecentSet } from './recent.js';
import { postInThread, streamedReply } from './reply.js';
import { plainText, unescapeText } from './text.js';
import type { UserDirectory } from './users.js';
import type { HandoffReplies } from './handoff.js';
import { countSlackError } from './metrics.js';

// Slack messages to the relay: which deliveries count (no retries, no repeats, no bots), what the
// relay needs to decide (DM, mention, follow-up), and, when it answers, who wrote (users.info) and
// the thread so far (conversations.replies). Replies always go in the message's thread. A reply in
// a handoff's thread goes to the person instead (./handoff.ts), and the chatbot stays out of it.

/** The fields of `message` and `app_mention` events this adapter reads. */
export type SlackMessage = {
  type: string;
  subtype?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  /** A thread reply's: who wrote the thread's parent. */
  parent_user_id?: string;
  channel: string;
  channel_type?: string;
};

export type Delivery = {
  message: SlackMessage;
  teamId: string;
  eventId: string | undefined;
  botUserId: string | undefined;
  botId: string | undefined;
  client: webApi.WebClient;
};

export type MessageHandlerDeps = {
  relay: () => Relay | undefined;
  users: UserDirectory;
  logger: Logger;
  /** The hint for an unbound channel, naming this app's slash command. */
  notBound: string;
  /** Takes replies in handoff threads (before the chatbot may answer them). */
  handoffReplies?: HandoffReplies;
};

/** Subtypes that are still a person writing (files shared with a comment, replies also sent to the channel). */
const PERSON_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast']);
/** Most thread messages sent to the hub as history. */
const MAX_HISTORY = 100;
/** The hub takes messages of at most this many characters. */
const MAX_CONTENT = 32_000;
/** What a bare mention (no words) asks. */
const BARE_MENTION = 'Hello!';

/** What a surface (the assistant thread) changes in answering a message. */
export type AnswerHooks = {
  /** The hint when no chatbot answers, instead of the channel's. */
  notBound?: string;
  /** Runs once the message is to be answered, before the hub is asked. */
  beforeAnswer?: () => Promise<void>;
  /** Runs when nothing was said: the message went to a person from the team. */
  afterSilence?: () => Promise<void>;
};

export type MessageHandler = (delivery: Delivery, hooks?: AnswerHooks) => Promise<void>;

export function createMessageHandler({ relay: currentRelay, users, logger, notBound, handoffReplies }: MessageHandlerDeps): MessageHandler {
  // Slack redelivers an event it thinks was missed (X-Slack-Retry-Num): one sent while the adapter
  // restarted is answered then. One this process took is dropped by its id, one another process
  // (or this one before a restart) answered by the relay's claim of the message.
  const deliveredEvents = new RecentSet(10_000, 60 * 60_000);
  // `app_mention` and `message` both arrive for a mention in a channel: one answer per message.
  // This process drops the second cheaply; the relay's claim settles it across instances.
  const handledMessages = new RecentSet(10_000, 60 * 60_000);
  let refusalLogged = false;
  const onStreamingRefused = (error: unknown) => {
    if (refusalLogged) return;
    refusalLogged = true;
    logger.warn({ err: error }, 'Slack refused native streaming: replies it refuses are edited messages instead');
  };

  return async (delivery, hooks = {}) => {
    const { message, teamId, client } = delivery;
    if (delivery.eventId && !deliveredEvents.add(delivery.eventId)) return;
    if (!isFromPerson(message) || !handledMessages.add(`${message.channel}:${message.ts}`)) return;
    const relay = currentRelay();
    if (!relay) return;

    const threadTs = message.thread_ts ?? message.ts;
    const threadKey = `${teamId}:${message.channel}:${threadTs}`;
    const direct = message.channel_type === 'im';
    const mentioned =
      message.type === 'app_mention' || (delivery.botUserId !== undefined && message.text.includes(`<@${delivery.botUserId}`));
    const inThread = message.thread_ts !== undefined && message.thread_ts !== message.ts;
    const inbound: InboundMessage = {
      workspaceId: teamId,
      channelId: message.channel,
      conversationId: `slack:${teamId}:${message.channel}:${threadTs}`,
      contact: { id: `slack:${teamId}:${message.user}`, name: null, email: null },
      history: [],
      direct,
      mentioned,
      followUp: false,
    };

    const messageKey = `${teamId}:${message.channel}:${message.ts}`;
    let routing: Awaited<ReturnType<Relay['route']>>;
    try {
      // Handoff threads start with the bot's message; a reply says whose its thread's parent is.
      const ownThread = message.parent_user_id !== undefined && message.parent_user_id === delivery.botUserId;
      if (inThread && handoffReplies && (ownThread || message.parent_user_id === undefined)) {
        const { channel, ts, user, text } = message;
        const claim = () => relay.claimMessage(messageKey);
        const reply = { channel, ts, threadTs, user, text, botUserId: delivery.botUserId, ownThread, client, claim };
        if (await handoffReplies(reply)) return;
      }
      // Threads the bot answered in live in the hub's store: any instance, any restart knows them.
      inbound.followUp = inThread && !direct && !mentioned && (await relay.inThread(threadKey));
      routing = await relay.route(inbound);
      if (routing.kind !== 'ignore' && !(await relay.claimMessage(messageKey))) return;
    } catch (error) {
      logger.error({ err: error, conversationId: inbound.conversationId }, 'could not look up the binding of a Slack channel');
      if (direct || mentioned || inbound.followUp) await postInThread(client, message.channel, threadTs, HUB_UNAVAILABLE);
      return;
    }
    if (routing.kind === 'ignore') return;
    if (routing.kind === 'unbound') {
      await postInThread(client, message.channel, threadTs, hooks.notBound ?? notBound);
      return;
    }

    await hooks.beforeAnswer?.();
    await relay.joinThread(threadKey);
    const [person, history] = await Promise.all([
      users.person(message.user),
      threadHistory(client, message, delivery, logger),
    ]);
    const contact = { ...inbound.contact, name: person?.name ?? null, email: person?.email ?? null };
    const target = { channel: message.channel, threadTs, teamId, userId: message.user };
    const said = await relay.answer({ ...inbound, contact, history }, routing.binding, streamedReply(client, target, onStreamingRefused));
    if (!said) await hooks.afterSilence?.();
  };
}

/** Registers the handler for `message` (channels, private channels, DMs) and `app_mention` events. */
export function listenForMessages(app: App, handle: MessageHandler): void {
  for (const eventName of ['message', 'app_mention'] as const) {
    app.event(eventName, async (args) => handle(toDelivery(args)));
  }
}

type MessageEventArgs = Pick<
  SlackEventMiddlewareArgs<'message' | 'app_mention'> & AllMiddlewareArgs,
  'event' | 'body' | 'context' | 'client'
>;

/** What the handler needs of a `message` or `app_mention` event as Bolt hands it over. */
export function toDelivery({ event, body, context, client }: MessageEventArgs): Delivery {
  return {
    message: event as unknown as SlackMessage,
    teamId: body.team_id ?? context.teamId ?? '',
    eventId: body.event_id,
    botUserId: context.botUserId,
    botId: context.botId,
    client,
  };
}

function isFromPerson(message: SlackMessage): message is SlackMessage & { user: string; text: string } {
  return (
    PERSON_SUBTYPES.has(message.subtype) &&
    message.bot_id === undefined &&
    typeof message.user === 'string' &&
    typeof message.text === 'string' &&
    message.text.trim() !== ''
  );
}

/** The thread up to this message as chat turns: the bot's messages as the assistant's, other bots left out. */
async function threadHistory(
  client: webApi.WebClient,
  message: SlackMessage & { text: string },
  { botUserId, botId }: Pick<Delivery, 'botUserId' | 'botId'>,
  logger: Logger,
): Promise<ChatMessage[]> {
  const own: ChatMessage = { role: 'user', content: clip(plainText(message.text, botUserId) || BARE_MENTION) };
  if (message.thread_ts === undefined || message.thread_ts === message.ts) return [own];

  let earlier: SlackMessage[];
  try {
    earlier = (await threadMessages(client, message.channel, message.thread_ts)).filter(
      (item) => compareTs(item.ts, message.ts) < 0,
    );
  } catch (error) {
    countSlackError(error);
    logger.warn({ err: error, channel: message.channel }, 'conversations.replies failed; answering without the thread');
    return [own];
  }
  const turns: ChatMessage[] = [];
  for (const item of earlier) {
    const fromBot = (botUserId !== undefined && item.user === botUserId) || (botId !== undefined && item.bot_id === botId);
    if (fromBot) {
      const content = unescapeText(item.text ?? '').trim();
      if (content) turns.push({ role: 'assistant', content });
    } else if (isFromPerson(item)) {
      const content = plainText(item.text, botUserId);
      if (content) turns.push({ role: 'user', content });
    }
  }
  turns.push(own);
  return merged(turns).slice(-MAX_HISTORY);
}

/** All messages of a thread, parent first (a few pages at most). */
async function threadMessages(client: webApi.WebClient, channel: string, ts: string): Promise<SlackMessage[]> {
  const messages: SlackMessage[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 5; page += 1) {
    const result = await client.conversations.replies({ channel, ts, limit: 200, cursor });
    messages.push(...((result.messages ?? []) as SlackMessage[]));
    cursor = result.response_metadata?.next_cursor || undefined;
    if (!result.has_more || !cursor) break;
  }
  return messages;
}

/** Consecutive turns of one role (a reply sent in parts, people talking among themselves) become one. */
function merged(turns: ChatMessage[]): ChatMessage[] {
  const result: ChatMessage[] = [];
  for (const turn of turns) {
    const last = result.at(-1);
    if (last?.role === turn.role) last.content = clip(`${last.content}\n${turn.content}`);
    else result.push({ ...turn, content: clip(turn.content) });
  }
  return result;
}

const clip = (text: string) => (text.length <= MAX_CONTENT ? text : text.slice(text.length - MAX_CONTENT));

/** Orders Slack timestamps ("1700000000.000100") exactly, without floating point. */
export function compareTs(a: string, b: string): number {
  const [aSeconds = '', aMicros = ''] = a.split('.');
  const [bSeconds = '', bMicros = ''] = b.split('.');
  return (
    aSeconds.padStart(12, '0').localeCompare(bSeconds.padStart(12, '0')) ||
    aMicros.padEnd(6, '0').localeCompare(bMicros.padEnd(6, '0'))
  );
}
