import { setTimeout as sleep } from 'node:timers/promises';
import {
  cleanContent,
  MessageFlags,
  type ActionRowBuilder,
  type ButtonBuilder,
  type ButtonInteraction,
  type Client,
  type Message,
  type SendableChannels,
} from 'discord.js';
import type { Logger } from 'pino';
import type { Binding, ChatMessage } from '../hub-client.js';
import { HUB_UNAVAILABLE, NOT_BOUND, QUOTA_USED, type InboundMessage, type Relay, type ReplySink } from '../relay.js';
import { addresseeOf, conversationIdOf, DM_WORKSPACE, personOf, withoutAddressee } from './conversation.js';
import { feedbackRows } from './feedback.js';
import { askedQuestion, askedText, suggestionIndex, suggestionRows } from './suggestions.js';
import { splitMessage } from './text.js';

// Discord messages in, replies out: decides whether a message is for the bot (a channel bound in
// `all` mode, a mention, a DM, a thread the bot started or was mentioned in), reads the
// conversation from the channel's recent history (in a channel, only the asker's part of it: see
// ./conversation.ts), and shows the reply as it streams — one message edited in place (the relay
// keeps edits ≥ 1 s apart), more messages past 2000 characters.

/** Shown when the hub answered with nothing. */
export const NO_ANSWER = 'Sorry, I have no answer to that.';

/** Said in place of a message that was only a mention of the bot. */
const BARE_MENTION = 'Hello!';

/** Typing shows for about 10 s; renewed while the first piece of the reply is awaited. */
const TYPING_RENEW_MS = 8_000;

/** How many of a channel's latest messages are read for a conversation: Discord's most for one request. */
const HISTORY_READ = 100;

/** Threads whose history this process searched for the bot (a bound on its memory). */
const MAX_SEARCHED_THREADS = 10_000;

/** The bot's own notices: not part of any conversation. */
const NOTICES = new Set([HUB_UNAVAILABLE, NOT_BOUND, QUOTA_USED, NO_ANSWER]);

export type MessageHandlerOptions = {
  client: Client<true>;
  relay: Relay;
  logger: Logger;
  /** How many recent messages of the conversation are sent along. */
  historyLimit: number;
  /** Least time between two writes of one reply message (Discord's edit limits). */
  editIntervalMs: number;
};

/** Said privately when a suggestion button no longer matches the chatbot's questions. */
export const SUGGESTION_GONE = 'That suggestion is no longer offered. Please ask in your own words.';

export type MessageHandlers = {
  onMessage(message: Message): Promise<void>;
  /** A click on a suggested question: asks it in the channel. False if the button is not one. */
  onButton(interaction: ButtonInteraction): Promise<boolean>;
};

export function createMessageHandler(options: MessageHandlerOptions): MessageHandlers {
  const { client, relay, logger, historyLimit, editIntervalMs } = options;
  /** Threads whose history was searched for the bot (once per thread and process). */
  const searchedThreads = new Set<string>();

  const rememberSearched = (threadId: string) => {
    searchedThreads.delete(threadId);
    searchedThreads.add(threadId);
    if (searchedThreads.size > MAX_SEARCHED_THREADS) {
      const oldest = searchedThreads.values().next().value;
      if (oldest !== undefined) searchedThreads.delete(oldest);
    }
  };

  const mentionsBot = (message: Message) =>
    message.mentions.users.has(client.user.id) || mentionPattern(client.user.id).test(message.content);

  /** The channel's recent messages up to this one, oldest first; just this one if they cannot be read. */
  async function fetchHistory(message: Message): Promise<Message[]> {
    const fetched = await message.channel.messages.fetch({ limit: HISTORY_READ, cache: false }).catch((error: unknown) => {
      logger.warn({ err: error, channelId: message.channelId }, 'could not read the channel history');
      return undefined;
    });
    if (!fetched) return [message];
    // Oldest first, and nothing written after the message being answered.
    const history = [...fetched.values()]
      .filter((item) => BigInt(item.id) <= BigInt(message.id))
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    if (!history.some((item) => item.id === message.id)) history.push(message);
    return history;
  }

  /**
   * The messages of `userId`'s own conversation in a channel: theirs, and the bot's that answer
   * them (every piece of a reply answers their message) or name them first (a question they
   * clicked, what the team told them).
   */
  function ofPerson(history: Message[], userId: string): Message[] {
    const theirs = new Set<string>();
    for (const item of history) {
      const answered = item.reference?.messageId;
      const belongs =
        item.author.id !== client.user.id
          ? item.author.id === userId
          : answered === undefined
            ? addresseeOf(item.content) === userId
            : theirs.has(answered);
      if (belongs) theirs.add(item.id);
    }
    return history.filter((item) => theirs.has(item.id));
  }

  function toTurns(history: Message[], message: Message): ChatMessage[] {
    const botId = client.user.id;
    const turns: ChatMessage[] = [];
    for (const item of history) {
      if (item.system) continue;
      const own = item.author.id === botId;
      if (item.author.bot && !own) continue;
      // A suggested question someone clicked is theirs, though the bot wrote it down.
      const asked = own ? askedQuestion(item.content.trim()) : undefined;
      let content = asked ?? (own ? withoutAddressee(item.content).trim() : plainText(item));
      if (own && NOTICES.has(content)) continue;
      if (!content) {
        if (item.id !== message.id) continue;
        content = BARE_MENTION;
      }
      const role = own && asked === undefined ? 'assistant' : 'user';
      // The conversation starts with a person speaking.
      if (role === 'assistant' && turns.length === 0) continue;
      turns.push({ role, content });
    }
    return turns;
  }

  /** The message as a person reads it: mentions of others as @names, the bot's own mention gone. */
  function plainText(message: Message): string {
    const withoutBot = message.content.replace(mentionPattern(client.user.id, 'g'), ' ');
    return cleanContent(withoutBot, message.channel).replace(/\s+\n/g, '\n').trim();
  }

  /** The conversation of a channel (thread, DM) as the relay knows it, before routing. */
  function inboundFor(
    channel: SendableChannels,
    guildId: string | null,
    author: { id: string; displayName: string },
    flags: Pick<InboundMessage, 'direct' | 'mentioned' | 'followUp'>,
  ): InboundMessage {
    const thread = channel.isThread() ? channel : undefined;
    return {
      workspaceId: guildId ?? DM_WORKSPACE,
      // A thread answers with the chatbot of the channel it belongs to.
      channelId: thread?.parentId ?? channel.id,
      conversationId: conversationIdOf({ guildId, channelId: channel.id, inThread: thread !== undefined }, author.id),
      contact: { id: `discord:${author.id}`, name: author.displayName || null, email: null },
      history: [],
      ...flags,
    };
  }

  /**
   * Answers `message` (a person's, or the bot's note of a `clicked` question) through the relay,
   * with the conversation's history.
   */
  async function reply(
    message: Message,
    channel: SendableChannels,
    inbound: InboundMessage,
    binding: Binding,
    { history, clicked = false }: { history?: Message[]; clicked?: boolean } = {},
  ) {
    const typing = keepTyping(channel, logger);
    const sink = replySink(message, { editIntervalMs, onFirstMessage: typing.stop });
    try {
      const read = history ?? (await fetchHistory(message));
      const person = personOf(inbound.conversationId);
      inbound.history = toTurns((person ? ofPerson(read, person) : read).slice(-historyLimit), message);
      await relay.answer(inbound, binding, sink);
    } finally {
      typing.stop();
    }
    const suggestions = await firstReplySuggestions(binding.chatbotId, inbound.conversationId, clicked).catch((error: unknown) => {
      logger.warn({ err: error, channelId: channel.id }, 'could not read the suggested questions');
      return [];
    });
    if (suggestions.length > 0) await sink.offer(suggestionRows(suggestions));
  }

  /**
   * The chatbot's suggestions for its first reply in a conversation: each person's first in a
   * channel (their own conversation), a thread's, a DM's. One who clicked a suggestion has seen them.
   */
  async function firstReplySuggestions(chatbotId: string, conversationId: string, clicked: boolean): Promise<string[]> {
    const first = await relay.firstReply(chatbotId, conversationId);
    return first && !clicked ? relay.suggestions(chatbotId) : [];
  }

  async function onButton(interaction: ButtonInteraction): Promise<boolean> {
    const index = suggestionIndex(interaction.customId);
    const channel = interaction.channel;
    if (index === undefined || !channel?.isSendable()) return false;
    // Every instance receives the click too.
    if (!(await relay.claimMessage(interaction.id))) return true;
    const author = { id: interaction.user.id, displayName: interaction.user.displayName };
    const flags = { direct: !interaction.inGuild(), mentioned: true, followUp: false };
    const inbound = inboundFor(channel, interaction.guildId, author, flags);
    const routing = await relay.route(inbound);
    const question = routing.kind === 'answer' ? (await relay.suggestions(routing.binding.chatbotId))[index] : undefined;
    if (routing.kind !== 'answer' || question === undefined) {
      await interaction.reply({ content: routing.kind === 'answer' ? SUGGESTION_GONE : NOT_BOUND, flags: MessageFlags.Ephemeral });
      return true;
    }
    // Acknowledged without a message of its own (type 6); the question is written down in the
    // channel for everyone, and answered as a reply to it.
    await interaction.deferUpdate();
    const asked = await channel.send({ content: askedText(author.id, question), allowedMentions: { parse: [] } });
    await reply(asked, channel, inbound, routing.binding, { clicked: true });
    return true;
  }

  async function onMessage(message: Message): Promise<void> {
    if (message.author.bot || message.system || message.webhookId) return;
    const channel = message.channel;
    if (!channel.isSendable()) return;
    const botId = client.user.id;
    const direct = !message.inGuild();
    const thread = channel.isThread() ? channel : undefined;
    const mentioned = mentionsBot(message);
    // Nothing to answer in a sticker or a picture alone, unless it was sent to the bot.
    if (!mentioned && !direct && !plainText(message)) return;

    let history: Message[] | undefined;
    let followUp = false;
    let addressed = direct || mentioned;
    try {
      if (thread && !mentioned) {
        // The threads the bot takes part in live in the hub's store, shared by every instance.
        if (thread.ownerId === botId || (await relay.inThread(thread.id))) followUp = true;
        else if (!searchedThreads.has(thread.id)) {
          // Mentioned there before threads were recorded? Its history tells, once.
          rememberSearched(thread.id);
          history = await fetchHistory(message);
          followUp = history.some((item) => item.author.id === botId || mentionsBot(item));
        }
        addressed ||= followUp;
      }

      const author = { id: message.author.id, displayName: message.author.displayName };
      const inbound = inboundFor(channel, message.guildId, author, { direct, mentioned, followUp });

      const routing = await relay.route(inbound);
      if (routing.kind === 'ignore') return;
      // Every connected instance receives every message: the one that claims it answers.
      if (!(await relay.claimMessage(message.id))) return;
      if (thread) await relay.joinThread(thread.id);
      if (routing.kind === 'unbound') {
        await message.reply(NOT_BOUND);
        return;
      }
      await reply(message, channel, inbound, routing.binding, { history });
    } catch (error) {
      logger.error({ err: error, channelId: channel.id, messageId: message.id }, 'could not handle a Discord message');
      if (addressed) await message.reply(HUB_UNAVAILABLE).catch(() => undefined);
    }
  }

  return { onMessage, onButton };
}

/** `<@id>` or `<@!id>`. */
function mentionPattern(userId: string, flags = ''): RegExp {
  return new RegExp(`<@!?${userId}>`, flags);
}

/** Shows "typing…" now and every few seconds until stopped. */
function keepTyping(channel: SendableChannels, logger: Logger): { stop(): void } {
  const send = () => {
    channel.sendTyping().catch((error: unknown) => logger.warn({ err: error, channelId: channel.id }, 'typing failed'));
  };
  send();
  const timer = setInterval(send, TYPING_RENEW_MS);
  return { stop: () => clearInterval(timer) };
}

type Rows = ActionRowBuilder<ButtonBuilder>[];

/**
 * The reply as Discord messages replying to the user's message, the first edited as the text
 * grows; past 2000 characters the text goes on in further messages, the last of which carries a
 * saved answer's 👍/👎 buttons. The relay spaces updates; the final edit waits here too, so no
 * message is written twice within `editIntervalMs`.
 */
function replySink(
  message: Message,
  options: { editIntervalMs: number; onFirstMessage: () => void },
): ReplySink & { offer(rows: Rows): Promise<void> } {
  const sent: { message: Message; writtenAt: number }[] = [];
  let feedback: Rows = [];

  async function write(index: number, edit: Parameters<Message['edit']>[0]): Promise<void> {
    const existing = sent[index];
    if (!existing) return;
    const wait = existing.writtenAt + options.editIntervalMs - Date.now();
    if (wait > 0) await sleep(wait);
    sent[index] = { message: await existing.message.edit(edit), writtenAt: Date.now() };
  }

  async function show(text: string, final: boolean): Promise<void> {
    if (!text && !final) return;
    const pieces = splitMessage(text || NO_ANSWER);
    for (const [index, piece] of pieces.entries()) {
      const components = final && index === pieces.length - 1 && feedback.length > 0 ? { components: feedback } : {};
      const existing = sent[index];
      if (!existing) {
        const body = { content: piece, ...components };
        // Every piece answers the question, so each reads as part of the asker's conversation; only the first pings them.
        const created = await message.reply(index === 0 ? body : { ...body, allowedMentions: { parse: [], repliedUser: false } });
        sent.push({ message: created, writtenAt: Date.now() });
        options.onFirstMessage();
      } else if (existing.message.content !== piece || components.components) {
        await write(index, { content: piece, ...components });
      }
    }
    // A final text shorter than what was shown (an apology after a broken stream) takes its place.
    for (const extra of sent.splice(pieces.length)) await extra.message.delete();
  }

  return {
    update: (text) => show(text, false),
    finish(text, answer) {
      feedback = answer ? feedbackRows(answer) : [];
      return show(text, true);
    },
    /** More buttons on the last message, above its 👍/👎. */
    offer: (rows) => write(sent.length - 1, { components: [...rows, ...feedback] }),
  };
}
