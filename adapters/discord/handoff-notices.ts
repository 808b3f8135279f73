import { setTimeout as sleep } from 'node:timers/promises';
import { ChannelType, DiscordAPIError, RESTJSONErrorCodes, ThreadAutoArchiveDuration, type Client, type TextChannel, type ThreadChannel } from 'discord.js';
import type { Logger } from 'pino';
import type { HandoffNotice, HandoffState, HandoffThread, HubClient } from '../hub-client.js';
import { markHandoffThread } from './handoff.js';
import { personSaid, requestEmbed, rootMessage, statusLine, threadName } from './handoff-message.js';
import { splitMessage } from './text.js';

// The hub's handoff notices, posted in Discord: polls the hub (every second while the bot runs)
// for notices leased to this process, posts each, then marks it done. A request becomes a message
// in the handoff channel with a thread started from it; the person's messages go into that thread;
// the close is said there, the root message loses its buttons and the thread is archived. Any
// number of bot processes may poll: the lease gives each notice to one; one not marked done (a
// crash, Discord refusing) is offered again when its lease ends.

const POLL_MS = 1_000;
/** Notices leased per pass; a full batch is followed by another pass at once. */
const BATCH = 10;
/** How long stop() waits for the pass in progress; a notice cut short is offered again when its lease ends. */
const STOP_GRACE_MS = 5_000;

export type HandoffNoticesOptions = {
  client: Client<true>;
  hub: HubClient;
  logger: Logger;
};

export type HandoffNotices = {
  /** Stops polling and waits for the pass in progress (at most a few seconds). */
  stop(): Promise<void>;
};

export function startHandoffNotices(options: HandoffNoticesOptions): HandoffNotices {
  const { client, hub } = options;
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

  async function postInThread(thread: HandoffThread, text: string): Promise<void> {
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
      if (notice.kind === 'message' && notice.text) await postInThread(thread, notice.text);
      if (notice.kind === 'closed') await close(thread, notice.handoff);
    } catch (error) {
      if (!(error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownChannel)) throw error;
      log.warn({ threadId: thread.threadId, noticeId: notice.id }, 'the handoff thread is gone: nothing posted');
    }
  }

  async function post(notice: HandoffNotice): Promise<void> {
    if (notice.kind === 'requested') {
      await hub.completeHandoffNotice(notice.id, await openThread(notice));
      return;
    }
    // Without a thread (its request was never posted) there is nowhere to say it.
    if (notice.thread) await inThread(notice, notice.thread);
    await hub.completeHandoffNotice(notice.id);
  }

  let stopped = false;
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  async function pass(): Promise<number> {
    const notices = await hub.claimHandoffNotices('discord', BATCH);
    await Promise.all(
      notices.map((notice) =>
        post(notice).catch((error: unknown) => {
          // Its lease runs out and it is offered again.
          log.error({ err: error, noticeId: notice.id, kind: notice.kind, conversationId: notice.conversationId }, 'could not post a handoff notice');
        }),
      ),
    );
    return notices.length;
  }

  function loop(): void {
    running = pass()
      .then((count) => {
        if (failing) log.info('handoff notices are read again');
        failing = false;
        return count;
      })
      .catch((error: unknown) => {
        // Said once per outage, not every second.
        if (!failing) log.error({ err: error }, 'could not read handoff notices from the hub');
        failing = true;
        return 0;
      })
      .then((count) => {
        if (!stopped) timer = setTimeout(loop, count === BATCH ? 0 : POLL_MS);
      });
  }
  loop();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.race([running, sleep(STOP_GRACE_MS, undefined, { ref: false })]);
    },
  };
}
