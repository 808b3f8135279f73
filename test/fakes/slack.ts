import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A local stand-in for Slack, speaking its wire formats so Bolt and its Web API client run
// unmodified: the Web API (`POST /api/{method}`, form-encoded arguments, `{ok: true, …}` or
// `{ok: false, error}`, HTTP 429 `ratelimited` with Retry-After on demand), the upload URLs
// files.uploadV2 posts to, and response_url. It keeps channels' messages so threads read back,
// and records every call. Helpers at the end deliver events and slash commands as Slack does:
// signed HTTP POSTs. For Socket Mode it also serves apps.connections.open and the WebSocket it
// names (a minimal RFC 6455 server: text frames, ping/pong, close), pushing envelopes and
// collecting the app's acknowledgements. Assistant threads (Agents & AI Apps) open as Slack opens
// them, a root message of subtype `assistant_app_thread` in the user's DM with the app, and keep
// the status, title and suggested prompts the assistant.threads methods set. Messages keep their
// Block Kit blocks (checked against Slack's limits for the blocks the adapter sends), and a click
// on a button of a stored message becomes the `block_actions` payload Slack would send.

export const TEAM = 'T0TEAM0001';
export const BOT_USER = 'U0BOT00001';
export const BOT_ID = 'B0BOT00001';
export const APP_ID = 'A0APP00001';
export const BOT_TOKEN = 'xoxb-0000000000-test-bot-token';
export const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
export const APP_TOKEN = 'xapp-1-A0APP00001-0000000000-test-app-token';

export type SlackUser = {
  id: string;
  name: string;
  realName: string;
  email?: string;
  isAdmin?: boolean;
  isOwner?: boolean;
  tz?: string;
};

export type SlackMessageRecord = {
  type: 'message';
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  user?: string;
  /** A reply's: who wrote the thread's parent. */
  parent_user_id?: string;
  bot_id?: string;
  app_id?: string;
  subtype?: string;
  team: string;
  edited?: { user: string; ts: string };
  /** A message written through chat.startStream: `true` until chat.stopStream. */
  streaming?: boolean;
  /** Block Kit blocks, each with the block_id Slack gives it when the app gave none. */
  blocks?: SlackBlock[];
  /** The root of an assistant thread. */
  assistant_app_thread?: { title: string; title_blocks: unknown[]; artifacts: unknown[] };
};

export type SuggestedPrompt = { title: string; message: string };

/** An assistant thread: where it is, whose it is, and what the app set on it. */
export type AssistantThread = {
  channel: string;
  threadTs: string;
  user: string;
  /** The status in force: set by assistant.threads.setStatus, cleared ('') when the app posts in the thread. */
  status: string;
  /** Every status the thread showed, in order, clears included. */
  statuses: string[];
  title: string;
  prompts: SuggestedPrompt[];
  promptsTitle: string | undefined;
};

export type SlackBlock = { type: string; block_id?: string; [field: string]: unknown };

/** A message only one user sees (chat.postEphemeral). */
export type EphemeralRecord = { channel: string; user: string; text: string; thread_ts?: string; ts: string };

export type ApiCall = {
  method: string;
  args: Record<string, string>;
  /** The bearer token the call carried. */
  token: string | undefined;
  /** HTTP status the fake answered. */
  status: number;
  /** `error` of an `{ok: false}` answer. */
  error?: string;
  at: number;
};

export type Upload = {
  fileId: string;
  filename: string;
  length: number;
  content?: string;
  shared?: { channelId: string; title: string | undefined; initialComment: string | undefined };
};

export type ResponseUrlPost = { path: string; body: Record<string, unknown>; at: number };

/** A modal opened with views.open: its id, the trigger it answered, and the view as sent. */
export type OpenedView = { id: string; triggerId: string; view: Record<string, unknown> };

/** An acknowledgement the app sent over the socket. */
export type SocketAck = { envelope_id: string; payload?: Record<string, unknown> };

type Answer = { status: number; body: Record<string, unknown>; headers?: Record<string, string> };

export type FakeSlack = {
  /** The Web API base, as SLACK_API_URL takes it: http://127.0.0.1:PORT/api/ */
  apiUrl: string;
  origin: string;
  calls: ApiCall[];
  responses: ResponseUrlPost[];
  uploads: Upload[];
  /** Modals opened with views.open, in order. */
  views: OpenedView[];
  messages: SlackMessageRecord[];
  ephemerals: EphemeralRecord[];
  addUser(user: SlackUser): void;
  /** Records a person's message, as Slack would before delivering its event. */
  userMessage(input: { channel: string; user: string; text: string; thread_ts?: string }): SlackMessageRecord;
  /** Records a message of another app's bot. */
  otherBotMessage(input: { channel: string; text: string; thread_ts?: string }): SlackMessageRecord;
  /** The next `times` calls of `method` answer HTTP 429 `ratelimited` with `Retry-After: seconds`. */
  rateLimit(method: string, seconds: number, times?: number): void;
  /**
   * The bot is not a member of `channel`, a public or a private one (a private channel, or a DM or
   * group DM between people): conversations.info says so as Slack does (`is_member: false`; a
   * private one is not found), and chat.postMessage there fails (`not_in_channel`; `channel_not_found`).
   */
  botNotIn(channel: string, kind: 'public' | 'private'): void;
  /** `channel` is a private channel with the bot in it (conversations.info: `is_private: true`); others are public. */
  privateChannel(channel: string): void;
  /** The next `times` calls of `method` answer `{ok: false, error}`. */
  failNext(method: string, error: string, times?: number): void;
  /** A fresh response_url of a slash command. */
  responseUrl(): string;
  callsTo(method: string): ApiCall[];
  /** The bot's messages in a thread, oldest first. */
  botReplies(channel: string, threadTs: string): SlackMessageRecord[];
  /** Opens an assistant thread in the user's DM with the app (its root message), as Slack does when the user opens the app's assistant view. */
  openAssistantThread(user: string): AssistantThread;
  assistantThread(channel: string, threadTs: string): AssistantThread | undefined;
  /** Socket Mode: open WebSocket connections, and the acknowledgements received. */
  socket: { connections(): number; acks: SocketAck[] };
  /** Socket Mode: sends an Events API envelope to every connection; answers its envelope_id. */
  pushEvent(envelope: Record<string, unknown>, retryAttempt?: number): string;
  /** Socket Mode: sends a slash command payload to every connection; answers its envelope_id. */
  pushCommand(payload: Record<string, string>): string;
  /** Socket Mode: sends an interaction payload (e.g. block_actions) to every connection; answers its envelope_id. */
  pushInteractive(payload: Record<string, unknown>): string;
  /**
   * The `block_actions` payload of `user` clicking a button of a stored message: the element with
   * `actionId` (for feedback buttons, its `positive` or `negative` one). Throws if there is none.
   */
  click(message: SlackMessageRecord, user: string, actionId: string, button?: 'positive' | 'negative'): Record<string, unknown>;
  /**
   * The `view_submission` payload of `user` submitting an opened modal with `values` typed into
   * its inputs, by block_id and action_id (plain_text_input values).
   */
  submitView(opened: OpenedView, user: string, values: Record<string, Record<string, string>>): Record<string, unknown>;
  /** Resolves once `check` holds (polled), or rejects after `timeoutMs`. */
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
};

/**
 * Slack's markup tokens: a mention of a user (`<@U…>`), a channel (`<#C…>`), everyone or a group
 * (`<!channel>`, `<!here>`, `<!subteam^…>`), and a link whose label may hide its address
 * (`<https://…|label>`).
 */
const SLACK_TOKEN = /<[@#!][^<>]*>|<[a-z][a-z\d+.-]*:[^<>]*>/gi;

/**
 * The text a streaming call carries, as Slack keeps it in the message; undefined if none. Slack
 * reads its markup tokens in `markdown_text` too (a mention there notifies), so those and the
 * entities `&amp;`, `&lt;`, `&gt;` stay as sent; other `&`, `<`, `>` are shown literally (escaped).
 */
function streamedText(args: Record<string, string>): string | undefined {
  const chunks = args.chunks ? (JSON.parse(args.chunks) as { type: string; text?: string }[]) : [];
  const parts = [args.markdown_text, ...chunks.filter((chunk) => chunk.type === 'markdown_text').map((chunk) => chunk.text)];
  const text = parts.filter((part): part is string => typeof part === 'string').join('');
  if (!text && !args.markdown_text && chunks.length === 0) return undefined;
  const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
  return text.replace(new RegExp(`${SLACK_TOKEN.source}|&(?:amp|lt|gt);|[&<>]`, 'gi'), (found) => escapes[found] ?? found);
}

/**
 * The markup tokens in a message that Slack acts on (notifying, or linking under a label): in its
 * text and in the text of its blocks, all but plain_text (which Slack shows as it is).
 */
export function slackTokens(message: Pick<SlackMessageRecord, 'text' | 'blocks'>): string[] {
  const texts: string[] = [message.text];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null) {
      const fields = value as Record<string, unknown>;
      if (fields.type !== 'plain_text' && typeof fields.text === 'string') texts.push(fields.text);
      Object.values(fields).forEach(collect);
    }
  };
  collect(message.blocks ?? []);
  return texts.flatMap((text) => text.match(SLACK_TOKEN) ?? []);
}

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;

/** A feedback button as Block Kit defines it: plain text ≤ 75, a value ≤ 2000, an optional label ≤ 75. */
function validFeedbackButton(button: unknown): boolean {
  const { text, value, accessibility_label: label } = (button ?? {}) as Record<string, unknown>;
  const { type, text: shown } = (text ?? {}) as Record<string, unknown>;
  return type === 'plain_text' && isText(shown, 75) && isText(value, 2000) && (label === undefined || isText(label, 75));
}

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown) => (value ?? {}) as Fields;
const isList = (value: unknown, min: number, max: number): value is Fields[] =>
  Array.isArray(value) && value.length >= min && value.length <= max;

/** A text object of one of `types` with 1 to `max` characters. */
function isTextObject(value: unknown, max: number, types = ['plain_text', 'mrkdwn']): boolean {
  const { type, text } = fieldsOf(value);
  return types.includes(String(type)) && isText(text, max);
}

/** A button: plain text ≤ 75, an action_id ≤ 255, a value ≤ 2000, style primary or danger. */
function validButton(button: Fields): boolean {
  const { text, action_id: actionId, value, style } = button;
  return (
    isTextObject(text, 75, ['plain_text']) &&
    (actionId === undefined || isText(actionId, 255)) &&
    (value === undefined || isText(value, 2000)) &&
    (style === undefined || style === 'primary' || style === 'danger')
  );
}

const validElement = (element: Fields) => element.type !== 'button' || validButton(element);

/** Block Kit's rules for the blocks the adapter sends (other types pass unchecked). */
const BLOCK_RULES: Record<string, (block: SlackBlock) => boolean> = {
  markdown: (block) => isText(block.text, 12_000),
  header: (block) => isTextObject(block.text, 150, ['plain_text']),
  // Text ≤ 3,000 and/or up to 10 fields of ≤ 2,000; an accessory element.
  section: (block) =>
    (block.text !== undefined || block.fields !== undefined) &&
    (block.text === undefined || isTextObject(block.text, 3_000)) &&
    (block.fields === undefined || (isList(block.fields, 1, 10) && block.fields.every((field) => isTextObject(field, 2_000)))) &&
    (block.accessory === undefined || validElement(fieldsOf(block.accessory))),
  // Up to 10 text objects or images.
  context: (block) =>
    isList(block.elements, 1, 10) && block.elements.every((element) => element.type === 'image' || isTextObject(element, 3_000)),
  // Up to 25 interactive elements, their action_ids distinct.
  actions: (block) =>
    isList(block.elements, 1, 25) &&
    block.elements.every(validElement) &&
    new Set(block.elements.map((element) => element.action_id)).size === block.elements.length,
  // 1–5 feedback or icon buttons.
  context_actions: (block) =>
    isList(block.elements, 1, 5) &&
    block.elements.every((element) =>
      element.type === 'feedback_buttons'
        ? (element.action_id === undefined || isText(element.action_id, 255)) &&
          validFeedbackButton(element.positive_button) &&
          validFeedbackButton(element.negative_button)
        : element.type === 'icon_button',
    ),
};

/**
 * The blocks of a call, each given a block_id if it has none; undefined when Slack would answer
 * `invalid_blocks` (at most 50 blocks, block_ids ≤ 255, and BLOCK_RULES).
 */
function parseBlocks(raw: string): SlackBlock[] | undefined {
  let blocks: unknown;
  try {
    blocks = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!Array.isArray(blocks) || blocks.length > 50) return undefined;
  const valid = blocks.every((block: SlackBlock) => {
    if (typeof block?.type !== 'string') return false;
    if (block.block_id !== undefined && !isText(block.block_id, 255)) return false;
    return BLOCK_RULES[block.type]?.(block) ?? true;
  });
  return valid ? (blocks as SlackBlock[]).map((block) => ({ block_id: randomUUID().slice(0, 5), ...block })) : undefined;
}

/** All text the blocks hold together; Slack refuses a message past about 12,000 (msg_blocks_too_long). */
const MAX_BLOCKS_TEXT = 12_000;
function blocksText(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + blocksText(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return Object.entries(value).reduce(
    (sum, [key, item]) => sum + (key === 'text' && typeof item === 'string' ? item.length : blocksText(item)),
    0,
  );
}

/**
 * A workspace as its bot token sees it: `team` and `botToken` name another one than the default
 * (an account with several workspaces runs a fake of each, as one adapter process runs per token).
 */
export type FakeSlackOptions = { team?: string; botToken?: string };

export async function startFakeSlack({ team = TEAM, botToken = BOT_TOKEN }: FakeSlackOptions = {}): Promise<FakeSlack> {
  const calls: ApiCall[] = [];
  const responses: ResponseUrlPost[] = [];
  const views: OpenedView[] = [];
  /** trigger_ids of interactions sent and not yet used to open a view. */
  const triggers = new Set<string>();
  const uploads: Upload[] = [];
  const messages: SlackMessageRecord[] = [];
  const ephemerals: EphemeralRecord[] = [];
  const users = new Map<string, SlackUser>();
  const limits = new Map<string, { seconds: number; times: number }>();
  const failures = new Map<string, { error: string; times: number }>();
  /** Channels the bot is not in (it is in every other), and whether each is public or private. */
  const outside = new Map<string, 'public' | 'private'>();
  /** Private channels the bot is in. */
  const privateChannels = new Set<string>();
  /** What Slack answers a bot writing in a channel it is not in, if it is not in it. */
  const notMember = (channel: string) => {
    const kind = outside.get(channel);
    return kind && { public: 'not_in_channel', private: 'channel_not_found' }[kind];
  };
  const seconds = Math.floor(Date.now() / 1000);
  let sequence = 0;
  const nextTs = () => `${seconds}.${String((sequence += 1)).padStart(6, '0')}`;
  let origin = '';

  const ok = (body: Record<string, unknown> = {}): Answer => ({ status: 200, body: { ok: true, ...body } });
  const fail = (error: string): Answer => ({ status: 200, body: { ok: false, error } });
  const find = (channel: string, ts: string) => messages.find((m) => m.channel === channel && m.ts === ts);
  const assistantThreads = new Map<string, AssistantThread>();
  const threadOf = (channel: string, threadTs: string | undefined) => assistantThreads.get(`${channel}:${threadTs}`);
  /** Slack removes a thread's status as soon as the app posts in it. */
  const clearStatus = (channel: string, threadTs: string | undefined) => {
    const thread = threadOf(channel, threadTs);
    if (thread?.status) {
      thread.status = '';
      thread.statuses.push('');
    }
  };
  /** The thread an assistant.threads call names, or the error Slack answers. */
  const assistantTarget = (args: Record<string, string>): AssistantThread | Answer => {
    if (!args.channel_id) return fail('channel_not_found');
    return threadOf(args.channel_id, args.thread_ts) ?? fail('invalid_thread_ts');
  };

  const methods: Record<string, (args: Record<string, string>) => Answer> = {
    'auth.test': () =>
      ok({
        url: 'https://switchboard-test.slack.com/',
        team: 'Switchboard Test',
        user: 'switchboard',
        team_id: team,
        user_id: BOT_USER,
        bot_id: BOT_ID,
        is_enterprise_install: false,
      }),

    'apps.connections.open': () =>
      ok({ url: `${origin.replace('http:', 'ws:')}/link/?ticket=${randomUUID()}&app_id=${APP_ID}` }),

    'chat.postMessage': (args) => {
      if (!args.channel) return fail('channel_not_found');
      const refusal = notMember(args.channel);
      if (refusal) return fail(refusal);
      if (!args.text && !args.blocks) return fail('no_text');
      if ((args.text ?? '').length > 40_000) return fail('msg_too_long');
      const blocks = args.blocks === undefined ? undefined : parseBlocks(args.blocks);
      if (args.blocks !== undefined && !blocks) return fail('invalid_blocks');
      if (blocksText(blocks) > MAX_BLOCKS_TEXT) return fail('msg_blocks_too_long');
      const message: SlackMessageRecord = {
        type: 'message',
        channel: args.channel,
        ts: nextTs(),
        ...(args.thread_ts ? { thread_ts: args.thread_ts } : {}),
        ...(blocks ? { blocks } : {}),
        text: args.text ?? '',
        user: BOT_USER,
        bot_id: BOT_ID,
        app_id: APP_ID,
        team,
      };
      messages.push(message);
      clearStatus(message.channel, message.thread_ts);
      return ok({ channel: message.channel, ts: message.ts, message });
    },

    // Native streaming: startStream opens a message in a thread, appendStream adds markdown to
    // it, stopStream ends it. Text comes as `markdown_text` or as `chunks` (a JSON array of
    // `{type: "markdown_text", text}`), as the Web API client form-encodes it.
    'chat.startStream': (args) => {
      if (!args.channel) return fail('channel_not_found');
      if (!args.thread_ts) return fail('invalid_arguments');
      // Outside a DM, Slack needs to know who the stream is for.
      if (!args.channel.startsWith('D') && (!args.recipient_user_id || !args.recipient_team_id)) {
        return fail('invalid_arguments');
      }
      const text = streamedText(args);
      if (text === undefined) return fail('no_text');
      const message: SlackMessageRecord = {
        type: 'message',
        channel: args.channel,
        ts: nextTs(),
        thread_ts: args.thread_ts,
        text,
        user: BOT_USER,
        bot_id: BOT_ID,
        app_id: APP_ID,
        team,
        streaming: true,
      };
      messages.push(message);
      clearStatus(message.channel, message.thread_ts);
      return ok({ channel: message.channel, ts: message.ts });
    },

    'chat.appendStream': (args) => {
      const message = find(args.channel ?? '', args.ts ?? '');
      if (!message) return fail('message_not_found');
      if (!message.streaming) return fail('message_not_in_streaming_state');
      const text = streamedText(args);
      if (text === undefined) return fail('no_text');
      if (text.length > 12_000) return fail('msg_too_long');
      message.text += text;
      return ok({ channel: message.channel, ts: message.ts });
    },

    'chat.stopStream': (args) => {
      const message = find(args.channel ?? '', args.ts ?? '');
      if (!message) return fail('message_not_found');
      if (!message.streaming) return fail('message_not_in_streaming_state');
      // Blocks given here are rendered below the streamed text.
      const blocks = args.blocks === undefined ? [] : parseBlocks(args.blocks);
      if (!blocks) return fail('invalid_blocks');
      message.text += streamedText(args) ?? '';
      message.streaming = false;
      if (blocks.length > 0) message.blocks = [...(message.blocks ?? []), ...blocks];
      return ok({ channel: message.channel, ts: message.ts, message });
    },

    'chat.update': (args) => {
      const message = find(args.channel ?? '', args.ts ?? '');
      if (!message) return fail('message_not_found');
      if (message.user !== BOT_USER) return fail('cant_update_message');
      if (!args.text) return fail('no_text');
      if (args.text.length > 40_000) return fail('msg_too_long');
      const blocks = args.blocks === undefined ? undefined : parseBlocks(args.blocks);
      if (args.blocks !== undefined && !blocks) return fail('invalid_blocks');
      if (blocksText(blocks) > MAX_BLOCKS_TEXT) return fail('msg_blocks_too_long');
      // Blocks not given are kept; an empty array removes them.
      if (blocks?.length === 0) delete message.blocks;
      else if (blocks) message.blocks = blocks;
      message.text = args.text;
      message.edited = { user: BOT_USER, ts: nextTs() };
      return ok({ channel: message.channel, ts: message.ts, text: message.text, message });
    },

    'chat.postEphemeral': (args) => {
      if (!args.channel) return fail('channel_not_found');
      if (!users.has(args.user ?? '')) return fail('user_not_found');
      if (!args.text && !args.blocks) return fail('no_text');
      const ephemeral: EphemeralRecord = {
        channel: args.channel,
        user: args.user ?? '',
        text: args.text ?? '',
        ...(args.thread_ts ? { thread_ts: args.thread_ts } : {}),
        ts: nextTs(),
      };
      ephemerals.push(ephemeral);
      return ok({ message_ts: ephemeral.ts });
    },

    'chat.delete': (args) => {
      const message = find(args.channel ?? '', args.ts ?? '');
      if (!message) return fail('message_not_found');
      if (message.user !== BOT_USER) return fail('cant_delete_message');
      messages.splice(messages.indexOf(message), 1);
      return ok({ channel: message.channel, ts: message.ts });
    },

    // Assistant threads: channel_id and thread_ts name the thread (errors as Slack documents
    // them); prompts arrive JSON-encoded, at most four, each with a title and a message.
    'assistant.threads.setStatus': (args) => {
      const thread = assistantTarget(args);
      if (!('threadTs' in thread)) return thread;
      // An empty status is allowed: it clears the status.
      if (args.status === undefined) return fail('invalid_arguments');
      thread.status = args.status;
      thread.statuses.push(args.status);
      return ok();
    },

    'assistant.threads.setSuggestedPrompts': (args) => {
      const thread = assistantTarget(args);
      if (!('threadTs' in thread)) return thread;
      const prompts = parsePrompts(args.prompts);
      if (!prompts) return fail('invalid_arguments');
      thread.prompts = prompts;
      thread.promptsTitle = args.title;
      return ok();
    },

    'assistant.threads.setTitle': (args) => {
      const thread = assistantTarget(args);
      if (!('threadTs' in thread)) return thread;
      if (!args.title) return fail('invalid_arguments');
      thread.title = args.title;
      const root = find(thread.channel, thread.threadTs);
      if (root?.assistant_app_thread) root.assistant_app_thread.title = args.title;
      return ok();
    },

    'users.info': (args) => {
      const user = users.get(args.user ?? '');
      if (!user) return fail('user_not_found');
      return ok({
        user: {
          id: user.id,
          team_id: team,
          name: user.name,
          deleted: false,
          real_name: user.realName,
          tz: user.tz ?? 'Europe/Oslo',
          tz_label: 'Central European Time',
          tz_offset: 3600,
          is_admin: user.isAdmin ?? false,
          is_owner: user.isOwner ?? false,
          is_primary_owner: false,
          is_restricted: false,
          is_ultra_restricted: false,
          is_bot: false,
          is_app_user: false,
          updated: seconds,
          profile: {
            real_name: user.realName,
            real_name_normalized: user.realName,
            display_name: user.name,
            display_name_normalized: user.name,
            ...(user.email ? { email: user.email } : {}),
            team,
          },
        },
      });
    },

    'conversations.replies': (args) => {
      const channel = args.channel ?? '';
      const parent = find(channel, args.ts ?? '');
      if (!parent) return fail('thread_not_found');
      const replies = messages.filter((m) => m.channel === channel && m.thread_ts === parent.ts && m.ts !== parent.ts);
      const thread = [{ ...parent, ...(replies.length ? { thread_ts: parent.ts, reply_count: replies.length } : {}) }, ...replies];
      const limit = Math.min(Number(args.limit ?? 1000) || 1000, 1000);
      const start = args.cursor ? Number(Buffer.from(args.cursor, 'base64').toString().replace('next_ts:', '')) : 0;
      const page = thread.slice(start, start + limit);
      const more = start + limit < thread.length;
      return ok({
        messages: page,
        has_more: more,
        response_metadata: { next_cursor: more ? Buffer.from(`next_ts:${start + limit}`).toString('base64') : '' },
      });
    },

    // A modal as Slack checks it: a trigger_id it issued and not yet used (they expire after 3 s),
    // a title of 1–24 characters, valid blocks, and a submit button when there is an input.
    'views.open': (args) => {
      const triggerId = args.trigger_id ?? '';
      if (!triggers.delete(triggerId)) return fail(triggerId ? 'expired_trigger_id' : 'invalid_arguments');
      let view: Record<string, unknown>;
      try {
        view = JSON.parse(args.view ?? '') as Record<string, unknown>;
      } catch {
        return fail('invalid_arguments');
      }
      const title = (view.title ?? {}) as Record<string, unknown>;
      const blocks = parseBlocks(JSON.stringify(view.blocks ?? []));
      const hasInput = blocks?.some((block) => block.type === 'input');
      const valid =
        view.type === 'modal' &&
        title.type === 'plain_text' &&
        isText(title.text, 24) &&
        blocks !== undefined &&
        (!hasInput || (view.submit as Record<string, unknown> | undefined)?.type === 'plain_text') &&
        (view.private_metadata === undefined || (typeof view.private_metadata === 'string' && view.private_metadata.length <= 3000)) &&
        (view.callback_id === undefined || isText(view.callback_id, 255));
      if (!valid) return fail('invalid_arguments');
      const opened: OpenedView = { id: `V${randomUUID().replaceAll('-', '').slice(0, 10).toUpperCase()}`, triggerId, view: { ...view, blocks } };
      views.push(opened);
      return ok({ view: { id: opened.id, ...opened.view } });
    },

    // A bot reads only the direct messages it is in, and the private channels it is in.
    'conversations.info': (args) => {
      const id = args.channel ?? '';
      if (!id || outside.get(id) === 'private') return fail('channel_not_found');
      const kinds = { is_channel: false, is_group: false, is_im: false, is_mpim: false, is_private: false };
      if (id.startsWith('D')) return ok({ channel: { id, ...kinds, is_im: true, user: `U${id.slice(1)}` } });
      return ok({ channel: { id, ...kinds, is_channel: true, is_private: privateChannels.has(id), is_member: !outside.has(id) } });
    },

    'conversations.open': (args) => {
      const user = args.users ?? '';
      if (!users.has(user)) return fail('user_not_found');
      return ok({ channel: { id: `D${user.slice(1)}` } });
    },

    'files.getUploadURLExternal': (args) => {
      const length = Number(args.length);
      if (!args.filename) return fail('invalid_arguments');
      if (!Number.isInteger(length) || length <= 0) return fail('invalid_arguments');
      const fileId = `F${String(uploads.length + 1).padStart(9, '0')}`;
      uploads.push({ fileId, filename: args.filename, length });
      return ok({ upload_url: `${origin}/upload/v1/${fileId}`, file_id: fileId });
    },

    'files.completeUploadExternal': (args) => {
      let files: { id: string; title?: string }[];
      try {
        files = JSON.parse(args.files ?? '') as { id: string; title?: string }[];
      } catch {
        return fail('invalid_arguments');
      }
      const done = [];
      for (const file of files) {
        const upload = uploads.find((u) => u.fileId === file.id);
        if (!upload || upload.content === undefined) return fail('file_not_found');
        if (args.channel_id) {
          upload.shared = { channelId: args.channel_id, title: file.title, initialComment: args.initial_comment };
        }
        done.push({ id: upload.fileId, name: upload.filename, title: file.title ?? upload.filename });
      }
      return ok({ files: done });
    },
  };

  async function api(method: string, req: IncomingMessage): Promise<Answer> {
    const raw = (await readBody(req)).toString();
    const type = req.headers['content-type'] ?? '';
    const args: Record<string, string> = type.includes('application/json')
      ? Object.fromEntries(Object.entries(JSON.parse(raw || '{}') as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
      : Object.fromEntries(new URLSearchParams(raw));
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? args.token;
    const call: ApiCall = { method, args, token, status: 200, at: Date.now() };
    calls.push(call);

    const answer = ((): Answer => {
      const limit = limits.get(method);
      if (limit && limit.times > 0) {
        limit.times -= 1;
        return { status: 429, body: { ok: false, error: 'ratelimited' }, headers: { 'Retry-After': String(limit.seconds) } };
      }
      if (!token) return fail('not_authed');
      if (token !== (method === 'apps.connections.open' ? APP_TOKEN : botToken)) return fail('invalid_auth');
      const failure = failures.get(method);
      if (failure && failure.times > 0) {
        failure.times -= 1;
        return fail(failure.error);
      }
      const handler = methods[method];
      return handler ? handler(args) : fail('unknown_method');
    })();
    call.status = answer.status;
    if (answer.body.ok === false) call.error = String(answer.body.error);
    return answer;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const apiMethod = /^\/api\/([\w.]+)$/.exec(path)?.[1];
    if (req.method === 'POST' && apiMethod) {
      const answer = await api(apiMethod, req);
      res.writeHead(answer.status, { 'Content-Type': 'application/json; charset=utf-8', ...answer.headers });
      res.end(JSON.stringify(answer.body));
      return;
    }
    const fileId = /^\/upload\/v1\/(F\d+)$/.exec(path)?.[1];
    if (req.method === 'POST' && fileId) {
      const upload = uploads.find((u) => u.fileId === fileId);
      const body = await readBody(req);
      if (!upload) {
        res.writeHead(404).end();
        return;
      }
      upload.content = await uploadedContent(body, req.headers['content-type'] ?? '');
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`OK - ${Buffer.byteLength(upload.content)}`);
      return;
    }
    if (req.method === 'POST' && path.startsWith('/commands/')) {
      const body = JSON.parse((await readBody(req)).toString() || '{}') as Record<string, unknown>;
      // Slack checks a response's blocks as chat.postMessage does, answering a plain-text 400.
      if (body.blocks !== undefined && !parseBlocks(JSON.stringify(body.blocks))) {
        res.writeHead(400, { 'Content-Type': 'text/plain' }).end('invalid_blocks');
        return;
      }
      responses.push({ path, body, at: Date.now() });
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('ok');
      return;
    }
    res.writeHead(404).end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  const sockets = new Set<Socket>();
  const acks: SocketAck[] = [];
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const key = req.headers['sec-websocket-key'];
    if (!req.url?.startsWith('/link/') || typeof key !== 'string') {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
    readFrames(socket, (opcode, payload) => {
      if (opcode === 0x1) acks.push(JSON.parse(payload.toString()) as SocketAck);
      else if (opcode === 0x9) socket.write(frame(0xa, payload));
      else if (opcode === 0x8) {
        socket.end(frame(0x8, payload.subarray(0, 2)));
        sockets.delete(socket);
      }
    });
    const hello = {
      type: 'hello',
      num_connections: 1,
      debug_info: { host: 'applink-fake-1', build_number: 1, approximate_connection_time: 18060 },
      connection_info: { app_id: APP_ID },
    };
    socket.write(frame(0x1, Buffer.from(JSON.stringify(hello))));
  });
  const push = (message: Record<string, unknown>) => {
    for (const socket of sockets) socket.write(frame(0x1, Buffer.from(JSON.stringify(message))));
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function record(message: Omit<SlackMessageRecord, 'type' | 'ts' | 'team'>): SlackMessageRecord {
    // A reply names the author of its thread's parent, as Slack's messages and events do.
    const parent = message.thread_ts === undefined ? undefined : find(message.channel, message.thread_ts);
    const stored: SlackMessageRecord = {
      type: 'message',
      ts: nextTs(),
      team,
      ...message,
      ...(parent?.user && { parent_user_id: parent.user }),
    };
    messages.push(stored);
    return stored;
  }

  return {
    apiUrl: `${origin}/api/`,
    origin,
    calls,
    responses,
    views,
    uploads,
    messages,
    ephemerals,
    addUser: (user) => users.set(user.id, user),
    userMessage: ({ channel, user, text, thread_ts }) => record({ channel, user, text, ...(thread_ts ? { thread_ts } : {}) }),
    otherBotMessage: ({ channel, text, thread_ts }) =>
      record({ channel, text, bot_id: 'B0OTHERBOT', app_id: 'A0OTHERAPP', ...(thread_ts ? { thread_ts } : {}) }),
    rateLimit: (method, secondsToWait, times = 1) => limits.set(method, { seconds: secondsToWait, times }),
    failNext: (method, error, times = 1) => failures.set(method, { error, times }),
    botNotIn: (channel, kind) => outside.set(channel, kind),
    privateChannel: (channel) => privateChannels.add(channel),
    responseUrl: () => `${origin}/commands/${team}/${randomUUID().replaceAll('-', '').slice(0, 13)}/${randomUUID()}`,
    callsTo: (method) => calls.filter((call) => call.method === method),
    socket: { connections: () => sockets.size, acks },
    pushEvent(envelope, retryAttempt = 0) {
      const envelopeId = randomUUID();
      push({
        envelope_id: envelopeId,
        payload: envelope,
        type: 'events_api',
        accepts_response_payload: false,
        retry_attempt: retryAttempt,
        retry_reason: retryAttempt ? 'timeout' : '',
      });
      return envelopeId;
    },
    pushCommand(payload) {
      const envelopeId = randomUUID();
      push({ envelope_id: envelopeId, payload, type: 'slash_commands', accepts_response_payload: true });
      return envelopeId;
    },
    pushInteractive(payload) {
      const envelopeId = randomUUID();
      push({ envelope_id: envelopeId, payload, type: 'interactive', accepts_response_payload: false });
      return envelopeId;
    },
    click(message, userId, actionId, button = 'positive') {
      // Buttons sit in a block's elements (actions, context_actions) or as a section's accessory.
      const found = (message.blocks ?? []).flatMap((block) =>
        [...((block.elements ?? []) as Record<string, unknown>[]), ...(block.accessory ? [block.accessory as Record<string, unknown>] : [])]
          .filter((element) => element.action_id === actionId)
          .map((element) => ({ block, element })),
      )[0];
      if (!found) throw new Error(`fake Slack: message ${message.ts} has no element ${actionId}`);
      const { block, element } = found;
      const clicked = (element.type === 'feedback_buttons' ? element[`${button}_button`] : element) as Record<string, unknown>;
      const person = users.get(userId);
      const triggerId = `${Date.now()}.${team}.${randomUUID().replaceAll('-', '')}`;
      triggers.add(triggerId);
      return {
        type: 'block_actions',
        user: { id: userId, username: person?.name ?? 'someone', name: person?.name ?? 'someone', team_id: team },
        api_app_id: APP_ID,
        token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl',
        container: {
          type: 'message',
          message_ts: message.ts,
          channel_id: message.channel,
          is_ephemeral: false,
          ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
        },
        trigger_id: triggerId,
        team: { id: team, domain: 'switchboard-test' },
        enterprise: null,
        is_enterprise_install: false,
        channel: { id: message.channel, name: message.channel.startsWith('D') ? 'directmessage' : 'general' },
        message: { ...message },
        state: { values: {} },
        response_url: `${origin}/actions/${team}/${randomUUID()}`,
        actions: [
          {
            type: element.type,
            action_id: actionId,
            block_id: block.block_id,
            ...(clicked.value === undefined ? {} : { value: clicked.value }),
            ...(clicked.text === undefined ? {} : { text: clicked.text }),
            action_ts: nextTs(),
          },
        ],
      };
    },
    submitView(opened, userId, values) {
      const person = users.get(userId);
      const blocks = (opened.view.blocks ?? []) as SlackBlock[];
      const state = Object.fromEntries(
        blocks
          .filter((block) => block.type === 'input')
          .map((block) => {
            const element = block.element as Record<string, unknown>;
            const actionId = String(element.action_id);
            const value = values[String(block.block_id)]?.[actionId];
            return [block.block_id, { [actionId]: { type: element.type, value: value ?? null } }];
          }),
      );
      return {
        type: 'view_submission',
        team: { id: team, domain: 'switchboard-test' },
        user: { id: userId, username: person?.name ?? 'someone', name: person?.name ?? 'someone', team_id: team },
        api_app_id: APP_ID,
        token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl',
        trigger_id: `${Date.now()}.${team}.${randomUUID().replaceAll('-', '')}`,
        view: {
          id: opened.id,
          team_id: team,
          type: 'modal',
          ...opened.view,
          private_metadata: opened.view.private_metadata ?? '',
          callback_id: opened.view.callback_id ?? '',
          state: { values: state },
          hash: `${Date.now()}.${randomUUID().slice(0, 8)}`,
          app_id: APP_ID,
          bot_id: 'B0SWITCHBD',
        },
        response_urls: [],
        is_enterprise_install: false,
        enterprise: null,
      };
    },
    botReplies: (channel, threadTs) =>
      messages.filter((m) => m.channel === channel && m.thread_ts === threadTs && m.user === BOT_USER),
    openAssistantThread(user) {
      // The DM with the app, as conversations.open names it.
      const root = record({
        channel: `D${user.slice(1)}`,
        user,
        text: 'New chat',
        subtype: 'assistant_app_thread',
        assistant_app_thread: { title: '', title_blocks: [], artifacts: [] },
      });
      const thread: AssistantThread = {
        channel: root.channel,
        threadTs: root.ts,
        user,
        status: '',
        statuses: [],
        title: '',
        prompts: [],
        promptsTitle: undefined,
      };
      assistantThreads.set(`${root.channel}:${root.ts}`, thread);
      return thread;
    },
    assistantThread: threadOf,
    async waitFor(check, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) throw new Error('fake Slack: the awaited condition did not happen in time');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The `prompts` of setSuggestedPrompts: one to four, each with a title and a message; undefined if not that. */
function parsePrompts(raw: string | undefined): SuggestedPrompt[] | undefined {
  let prompts: unknown;
  try {
    prompts = JSON.parse(raw ?? '');
  } catch {
    return undefined;
  }
  if (!Array.isArray(prompts) || prompts.length === 0 || prompts.length > 4) return undefined;
  const valid = prompts.every(
    (prompt: { title?: unknown; message?: unknown }) =>
      typeof prompt?.title === 'string' && prompt.title !== '' && typeof prompt.message === 'string' && prompt.message !== '',
  );
  return valid ? (prompts as SuggestedPrompt[]) : undefined;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The bytes sent to an upload URL: the file part of a multipart form, or the raw body. */
async function uploadedContent(body: Buffer, contentType: string): Promise<string> {
  if (!contentType.startsWith('multipart/form-data')) return body.toString();
  const form = await new Response(new Uint8Array(body), { headers: { 'Content-Type': contentType } }).formData();
  for (const value of form.values()) {
    if (typeof value !== 'string') return value.text();
  }
  return '';
}

/** One unfragmented WebSocket frame from the server (never masked). */
function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x80 | opcode, length])
      : length < 65_536
        ? Buffer.from([0x80 | opcode, 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigEndian64(length)]);
  return Buffer.concat([header, payload]);
}

function bigEndian64(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
}

/** Reads the client's (masked) frames off a socket; fragments are not expected from Slack's SDK. */
function readFrames(socket: Socket, onFrame: (opcode: number, payload: Buffer) => void): void {
  let buffered = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      if (buffered.length < 2) return;
      const opcode = (buffered[0] as number) & 0x0f;
      const masked = ((buffered[1] as number) & 0x80) !== 0;
      let length = (buffered[1] as number) & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffered.length < 4) return;
        length = buffered.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffered.length < 10) return;
        length = Number(buffered.readBigUInt64BE(2));
        offset = 10;
      }
      const maskLength = masked ? 4 : 0;
      if (buffered.length < offset + maskLength + length) return;
      const mask = buffered.subarray(offset, offset + maskLength);
      const payload = Buffer.from(buffered.subarray(offset + maskLength, offset + maskLength + length));
      if (masked) for (let i = 0; i < payload.length; i += 1) payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
      buffered = buffered.subarray(offset + maskLength + length);
      onFrame(opcode, payload);
    }
  });
}

// ---- Slack → app: events and slash commands, signed as Slack signs them --------------------

export const signature = (secret: string, timestamp: number | string, body: string) =>
  `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;

export type DeliveryOptions = {
  secret?: string;
  /** Unix seconds; now unless given (a stale request is older than five minutes). */
  timestamp?: number;
  /** Sent instead of the right signature. */
  forgedSignature?: string;
  retryNum?: number;
  retryReason?: string;
};

/** POSTs a body to the app's Slack endpoint with Slack's headers. */
export function deliver(url: string, body: string, contentType: string, options: DeliveryOptions = {}): Promise<Response> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'User-Agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
    'X-Slack-Request-Timestamp': String(timestamp),
    'X-Slack-Signature': options.forgedSignature ?? signature(options.secret ?? SIGNING_SECRET, timestamp, body),
  };
  if (options.retryNum !== undefined) {
    headers['X-Slack-Retry-Num'] = String(options.retryNum);
    headers['X-Slack-Retry-Reason'] = options.retryReason ?? 'http_timeout';
  }
  return fetch(url, { method: 'POST', headers, body });
}

let eventSequence = 0;

/** An Events API `event_callback` envelope around `event`. */
export function eventEnvelope(event: Record<string, unknown>, eventId = `Ev${Date.now()}${(eventSequence += 1)}`) {
  return {
    token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl',
    team_id: TEAM,
    context_team_id: TEAM,
    context_enterprise_id: null,
    api_app_id: APP_ID,
    event,
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ enterprise_id: null, team_id: TEAM, user_id: BOT_USER, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
    event_context: `4-${Buffer.from(eventId).toString('base64')}`,
  };
}

export type ChannelType = 'channel' | 'group' | 'im';

/** The `message` event of a recorded message, as Slack sends it for message.channels/groups/im. */
export function messageEvent(message: SlackMessageRecord, channelType: ChannelType = 'channel') {
  return {
    ...message,
    ...(message.user && !message.bot_id ? { client_msg_id: randomUUID() } : {}),
    event_ts: message.ts,
    channel_type: channelType,
  };
}

/** The `message` event of a person's message in an assistant thread (message.im, with the thread's action token). */
export function assistantMessageEvent(message: SlackMessageRecord, thread: AssistantThread) {
  return {
    ...messageEvent(message, 'im'),
    parent_user_id: thread.user,
    assistant_thread: { action_token: `${Date.now()}.${TEAM}.${randomUUID().replaceAll('-', '').slice(0, 8)}` },
  };
}

/**
 * `assistant_thread_started` (the user opened the thread) or `assistant_thread_context_changed`
 * (the user moved to another channel with it open); `contextChannel` is the channel in view, if any.
 */
export function assistantThreadEvent(
  type: 'assistant_thread_started' | 'assistant_thread_context_changed',
  thread: AssistantThread,
  contextChannel?: string,
) {
  return {
    type,
    assistant_thread: {
      user_id: thread.user,
      context: contextChannel ? { channel_id: contextChannel, team_id: TEAM, enterprise_id: null } : {},
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
    },
    event_ts: `${Math.floor(Date.now() / 1000)}.${String(Date.now() % 1_000_000).padStart(6, '0')}`,
  };
}

/** The `app_mention` event of a recorded message. */
export function mentionEvent(message: SlackMessageRecord) {
  return {
    type: 'app_mention',
    user: message.user,
    text: message.text,
    ts: message.ts,
    ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
    channel: message.channel,
    event_ts: message.ts,
    team: TEAM,
    client_msg_id: randomUUID(),
  };
}

export type SlashCommandInput = {
  command?: string;
  text: string;
  userId: string;
  userName?: string;
  channelId: string;
  /** As Slack names the channel to the app: `directmessage` for a DM, `mpdm-…` for a group DM, `privategroup` for a private channel it is not in. */
  channelName?: string;
  responseUrl: string;
};

/** A slash command's form body, as Slack posts it. */
export function slashCommandBody(input: SlashCommandInput): string {
  return new URLSearchParams(slashCommandPayload(input)).toString();
}

/** A slash command's fields (the form body's, and the payload of a Socket Mode envelope). */
export function slashCommandPayload(input: SlashCommandInput): Record<string, string> {
  return {
    token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl',
    team_id: TEAM,
    team_domain: 'switchboard-test',
    channel_id: input.channelId,
    channel_name: input.channelName ?? (input.channelId.startsWith('D') ? 'directmessage' : 'general'),
    user_id: input.userId,
    user_name: input.userName ?? 'someone',
    command: input.command ?? '/chatbot',
    text: input.text,
    api_app_id: APP_ID,
    is_enterprise_install: 'false',
    response_url: input.responseUrl,
    trigger_id: `${Date.now()}.${TEAM}.${randomUUID().replaceAll('-', '')}`,
  };
}
