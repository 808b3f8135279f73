import { cleanContent, GuildMember, MessageFlags, type ButtonInteraction, type Client, type Message } from 'discord.js';
import type { Logger } from 'pino';
import { COMMAND_FAILED } from '../commands.js';
import { HubApiError, isOpenHandoff, type HandoffInThread, type HandoffState, type HubClient } from '../hub-client.js';
import type { Relay } from '../relay.js';
import { HANDOFF_CLOSED, NOT_DELIVERED, ONLY_TEXT, RESOLVE_ID, rootMessage, TAKE_ID } from './handoff-message.js';
import { withoutEmphasis } from './text.js';

// The team's side of a handoff in Discord: Take and Resolve on the root message, and replies in
// its thread relayed to the person under the member's display name. A thread is relayed only while
// the hub finds it (findHandoffByThread: the thread of its conversation's current handoff); the
// chatbot never answers in any handoff thread, even one the hub no longer finds (a later handoff
// of the conversation has its own), which the hub's claims remember. Every bot instance receives
// every event: the one that claims it acts.

export type HandoffListeners = {
  /** A team member's message in a handoff thread: relayed. False if the message is not in one. */
  onMessage(message: Message): Promise<boolean>;
  /** Take or Resolve clicked. False if the button is not one of them. */
  onButton(interaction: ButtonInteraction): Promise<boolean>;
};

export type HandoffListenerOptions = { client: Client<true>; hub: HubClient; relay: Relay; logger: Logger };

/** How long a handoff thread is remembered as one (the longest claim the hub keeps): the chatbot stays out of it that long. */
const HANDOFF_THREAD_SECONDS = 30 * 24 * 60 * 60;
const handoffThreadKey = (threadId: string) => `discord:handoff-thread:${threadId}`;

/** Remembers, for every instance, that a thread is a handoff's. */
export async function markHandoffThread(hub: HubClient, threadId: string): Promise<void> {
  await hub.claim(handoffThreadKey(threadId), HANDOFF_THREAD_SECONDS);
}

/** Said privately when the message clicked on is not (or no longer) a handoff's. */
const NOT_A_HANDOFF = 'That handoff is no longer known.';

/** The member's name in this server (nickname, else global name, else username): all the hub learns of them. */
function displayName(member: ButtonInteraction['member'] | Message['member'], user: { displayName: string }): string {
  if (member instanceof GuildMember) return member.displayName;
  return member?.nick ?? user.displayName;
}

export function createHandoffListeners({ client, hub, relay, logger }: HandoffListenerOptions): HandoffListeners {
  const find = (channelId: string, threadId: string) => hub.findHandoffByThread({ platform: 'discord', channelId, threadId });

  /** Shows a new state on the root message (in the parent channel, with the thread's id). */
  async function showOnRoot(channelId: string, threadId: string, state: HandoffState): Promise<void> {
    const parent = await client.channels.fetch(channelId);
    if (parent?.isTextBased() && !parent.isDMBased()) await parent.messages.edit(threadId, rootMessage(state));
  }

  async function relayReply(message: Message, found: HandoffInThread, channelId: string, threadId: string): Promise<void> {
    if (!isOpenHandoff(found.handoff)) {
      await message.reply(HANDOFF_CLOSED);
      return;
    }
    const text = withoutEmphasis(cleanContent(message.content, message.channel)).trim();
    if (!text) {
      await message.reply(ONLY_TEXT);
      return;
    }
    const name = displayName(message.member, message.author);
    const state = await hub.replyInHandoff(found.chatbotId, found.conversationId, name, text);
    // The first reply took it: the root message says who has it now.
    if (found.handoff.status === 'pending' && state.status === 'active') {
      await showOnRoot(channelId, threadId, state).catch((error: unknown) =>
        logger.warn({ err: error, threadId }, 'could not update the handoff message'),
      );
    }
  }

  async function onMessage(message: Message): Promise<boolean> {
    if (message.author.bot || message.system || message.webhookId) return false;
    const thread = message.channel.isThread() ? message.channel : undefined;
    // Handoff threads are started by the bot, from its message in the handoff channel.
    if (!thread?.parentId || thread.ownerId !== client.user.id) return false;
    try {
      const found = await find(thread.parentId, thread.id);
      if (!found && !(await hub.isHeld(handoffThreadKey(thread.id)))) return false;
      if (!(await relay.claimMessage(message.id))) return true;
      if (found) await relayReply(message, found, thread.parentId, thread.id);
      else await message.reply(HANDOFF_CLOSED);
    } catch (error) {
      logger.error({ err: error, threadId: thread.id, messageId: message.id }, 'could not relay a handoff reply');
      await message.reply(NOT_DELIVERED).catch(() => undefined);
    }
    return true;
  }

  async function onButton(interaction: ButtonInteraction): Promise<boolean> {
    const take = interaction.customId === TAKE_ID;
    if (!take && interaction.customId !== RESOLVE_ID) return false;
    if (!(await relay.claimMessage(interaction.id))) return true;
    // Acknowledged at once (type 6); the message is updated once the hub answered.
    await interaction.deferUpdate();
    try {
      await settleClick(interaction, take);
    } catch (error) {
      logger.error({ err: error, interactionId: interaction.id }, 'could not take or resolve a handoff');
      await interaction.followUp({ content: COMMAND_FAILED, flags: MessageFlags.Ephemeral }).catch(() => undefined);
    }
    return true;
  }

  /** Takes or resolves the clicked message's handoff and shows the outcome on it. */
  async function settleClick(interaction: ButtonInteraction, take: boolean): Promise<void> {
    const threadId = interaction.message.id;
    const found = await find(interaction.channelId, threadId);
    if (!found) {
      await interaction.followUp({ content: NOT_A_HANDOFF, flags: MessageFlags.Ephemeral });
      return;
    }
    const { chatbotId, conversationId } = found;
    let state = found.handoff;
    if (isOpenHandoff(state)) {
      try {
        state = take
          ? await hub.takeHandoff(chatbotId, conversationId, displayName(interaction.member, interaction.user))
          : await hub.resolveHandoff(chatbotId, conversationId);
      } catch (error) {
        // Closed meanwhile (a timeout, another click): show how it stands.
        if (!(error instanceof HubApiError && error.status === 404)) throw error;
        state = (await find(interaction.channelId, threadId))?.handoff ?? state;
      }
    }
    await interaction.editReply(rootMessage(state));
  }

  return { onMessage, onButton };
}
