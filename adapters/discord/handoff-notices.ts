import { ChannelType, DiscordAPIError, RESTJSONErrorCodes, ThreadAutoArchiveDuration, type Client, type TextChannel, type ThreadChannel } from 'discord.js';
import type { Logger } from 'pino';
import { startNoticePoller, type NoticePoller } from '../handoff-notices.js';
import { MAX_CLAIM_WORKSPACES, type HandoffNotice, type HandoffState, type HandoffThread, type HubClient } from '../hub-client.js';
import { markHandoffThread } from './handoff.js';
import { personSaid, requestEmbed, rootMessage, statusLine, threadName, toPerson } from './handoff-message.js';
import { addressed, DM_WORKSPACE, personOf } from './conversation.js';
import { DISCORD_MESSAGE_LIMIT, splitMessage } from './text.js';

// The hub's handoff notices, posted in Discord (the shared poller leases them): a request becomes
// a message in the handoff channel with a thread started from it; the person's messages go into
// that thread; the close is said there, the root message loses its buttons and the thread is
// archived. What the team tells a person talking to the chatbot in Discord goes to their channel,
// naming them first where the channel is shared (their own conversation in it).

/** The longest nonce Discord takes. */
const NONCE_LIMIT = 25;

export type HandoffNoticesOptions = {
  client: Client<true>;
  hub: HubClient;
  logger: Logger;
  /** Whether the bot serves a server (./servers.ts): it claims only those servers' notices. */
  serves: (guildId: string) => boolean;
};

export function startHandoffNotices(options: HandoffNoticesOptions): NoticePoller {
  const { client, hub, serves } = options;
  const log = options.logger.child({ feature: 'handoff notices' });

  async function textChannel(channelId: string): Promise<TextChannel> {
    const channel = await client.channels.fetch(channelId);
    if (channel?.type !== ChannelType.GuildText) throw new Error(`handoff channel ${channelId} is not a text channel the bot can see`);
    return channel;
  }

  async function threadChannel(threadId: string): Promise<ThreadChannel> {
    const channel = await client.channels.fetch(threadId);
    if (!channel?.isThread()) throw new Error(`handoff thread ${threadId} is not a thread the bot can see`);
    return channel;
  }

  /** The request in the handoff channel, and the thread started from it (sharing its id). */
  async function openThread(notice: HandoffNotice): Promise<HandoffThread> {
    const channel = await textChannel(notice.channel.channelId);
    if (notice.channel.workspaceId && channel.guildId !== notice.channel.workspaceId) {
      throw new Error(`handoff channel ${channel.id} is not in server ${notice.channel.workspaceId}`);
    }
    const root = await channel.send({ ...rootMessage(notice.handoff), embeds: [requestEmbed(notice)] });
    // The thread will have the root message's id: remembered first, so the chatbot never answers in it.
    await markHandoffThread(hub, root.id);
    const thread = await root.startThread({ name: threadName(notice), autoArchiveDuration: ThreadAutoArchiveDuration.OneDay });
    return { channelId: channel.id, threadId: thread.id };
  }

  async function postPersonMessage(thread: HandoffThread, text: string): Promise<void> {
    const channel = await threadChannel(thread.threadId);
    for (const piece of splitMessage(personSaid(text))) await channel.send({ content: piece });
  }

  /**
   * Takes the buttons off the root message, says in the thread how it ended and archives the
   * thread: closed handoffs leave the channel's list of active threads, their history stays
   * readable, and a later message there is answered that it no longer reaches the person. Only
   * the note must succeed; the rest is tidying, logged when Discord refuses it.
   */
  async function close(thread: HandoffThread, state: HandoffState): Promise<void> {
    const tidy = (what: string) => (error: unknown) => log.warn({ err: error, threadId: thread.threadId }, `could not ${what}`);
    await textChannel(thread.channelId)
      .then((parent) => parent.messages.edit(thread.threadId, rootMessage(state)))
      .catch(tidy('update the handoff message'));
    const channel = await threadChannel(thread.threadId);
    await channel.send({ content: statusLine(state) });
    await channel.setArchived(true, 'The handoff is closed').catch(tidy('archive the handoff thread'));
  }

  /** Posts in the handoff's thread; a thread someone deleted takes nothing more, and that is no failure. */
  async function inThread(notice: HandoffNotice, thread: HandoffThread): Promise<void> {
    try {
      if (notice.kind === 'message' && notice.text) await postPersonMessage(thread, notice.text);
      if (notice.kind === 'closed') await close(thread, notice.handoff);
    } catch (error) {
      if (!(error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownChannel)) throw error;
      log.warn({ threadId: thread.threadId, noticeId: notice.id }, 'the handoff thread is gone: nothing posted');
    }
  }

  /**
   * Says what the team tells the person in their channel (or thread, or DM), every piece naming
   * them (and pinging only them) in a channel others talk in too; a channel deleted since takes nothing.
   */
  async function tellPerson(notice: HandoffNotice): Promise<void> {
    const { channelId } = notice.channel;
    const person = personOf(notice.conversationId);
    const limit = person ? DISCORD_MESSAGE_LIMIT - addressed(person, '').length : DISCORD_MESSAGE_LIMIT;
    try {
      const channel = await client.channels.fetch(channelId);
      if (!channel?.isSendable()) throw new Error(`channel ${channelId} of a person in handoff is not one the bot can write in`);
      // No other mention is parsed, whatever the text holds. A notice posted again (its done was
      // lost) names its pieces as before, and Discord answers with the messages already made.
      for (const [index, piece] of splitMessage(toPerson(notice), limit).entries()) {
        const nonce = `${index}.${notice.id}`.slice(0, NONCE_LIMIT);
        const shown = person ? { content: addressed(person, piece), allowedMentions: { parse: [], users: [person] } } : { content: piece, allowedMentions: { parse: [] } };
        await channel.send({ ...shown, nonce, enforceNonce: true });
      }
    } catch (error) {
      if (!(error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownChannel)) throw error;
      log.warn({ channelId, noticeId: notice.id }, 'the person’s channel is gone: nothing posted');
    }
  }

  /**
   * The servers the bot is in now (the gateway keeps the list) and serves, and its direct
   * messages, so that an account running several Discord bots has each claim only what it can post (replies to
   * people in direct messages are any bot's to claim; one not the bot's fails and is offered again).
   * A bot in more servers than a claim may name claims every server's, as a process whose bot is
   * in all of them would.
   */
  function workspaceIds(): string[] | undefined {
    const workspaces = [...client.guilds.cache.keys()].filter(serves).concat(DM_WORKSPACE);
    return workspaces.length <= MAX_CLAIM_WORKSPACES ? workspaces : undefined;
  }

  return startNoticePoller({
    hub,
    platform: 'discord',
    workspaceIds,
    logger: options.logger,
    poster: { startThread: openThread, postInThread: inThread, tellPerson },
  });
}
