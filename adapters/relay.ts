import type { Logger } from 'pino';
import { HubApiError, type Binding, type ChatMessage, type ConversationSource, type HubClient, type Platform } from './hub-client.js';
import { sourcesLine } from './sources-line.js';

// What every chat platform does the same way: decide whether a message is for the bot, make
// sure its author is a contact, ask the hub, and deliver the reply progressively. A platform
// adapter supplies the message in neutral terms and a sink that shows text on its platform.

export type InboundMessage = {
  workspaceId: string;
  channelId: string;
  conversationId: string;
  /** The platform's user, as a contact of the chatbot. */
  contact: { id: string; name: string | null; email: string | null };
  /** The conversation as the platform shows it, ending with this message. */
  history: ChatMessage[];
  /** A direct message to the bot. */
  direct: boolean;
  /** The bot was mentioned. */
  mentioned: boolean;
  /** A later message in a thread the bot already answered. */
  followUp: boolean;
};

/** The saved answer a 👍/👎 is about. */
export type AnswerRef = { chatbotId: string; messageId: string };

/**
 * Shows a reply on the platform: `update` as it grows (throttled by the relay), `finish` once;
 * `answer` names the saved answer, whose last message then offers 👍/👎 (not for an apology, nor
 * for the waiting message of a handoff).
 */
export type ReplySink = {
  update(text: string): Promise<void>;
  finish(text: string, answer?: AnswerRef): Promise<void>;
};

/** Whether to answer a message: with a bound chatbot, with a note that none is bound, or not. */
export type Routing = { kind: 'answer'; binding: Binding } | { kind: 'unbound' } | { kind: 'ignore' };

export type Relay = {
  route(message: InboundMessage): Promise<Routing>;
  /**
   * Asks the hub and shows its reply; shows nothing while a person from the team has the
   * conversation. Answers whether it showed anything.
   */
  answer(message: InboundMessage, binding: Binding, sink: ReplySink): Promise<boolean>;
  /** Takes a message for this instance; false when another instance (or event) already has it. */
  claimMessage(messageId: string): Promise<boolean>;
  /** Records, for every instance, that the bot takes part in a thread. */
  joinThread(threadId: string): Promise<void>;
  /** Whether the bot takes part in a thread (as any instance recorded). */
  inThread(threadId: string): Promise<boolean>;
  /** The chatbot's suggested questions. */
  suggestions(chatbotId: string): Promise<string[]>;
  /** Whether this is the chatbot's first reply in a conversation (across instances): true once. */
  firstReply(chatbotId: string, conversationId: string): Promise<boolean>;
};

export type RelayOptions = {
  hub: HubClient;
  platform: Platform;
  source: ConversationSource;
  logger: Logger;
  /** Least time between two progressive updates (platform edit limits). */
  updateIntervalMs?: number;
  now?: () => number;
};

export const HUB_UNAVAILABLE = "Sorry, I can't reach the chatbot right now. Please try again in a moment.";
export const QUOTA_USED = 'Sorry, this chatbot has used up its messages for this month.';
/** The hint for an unbound channel, naming the platform's command. */
export const notBoundText = (command = '/chatbot') =>
  `No chatbot is set up for this channel yet. An admin can bind one with \`${command} use <chatbotId>\`.`;
export const NOT_BOUND = notBoundText();

/** How long a message stays claimed: longer than any redelivery of it. */
const MESSAGE_CLAIM_SECONDS = 24 * 60 * 60;
/** How long a thread the bot answered in keeps counting as its own. */
const THREAD_SECONDS = 30 * 24 * 60 * 60;

export function createRelay(options: RelayOptions): Relay {
  const { hub, platform, source, logger } = options;
  const interval = options.updateIntervalMs ?? 1_000;
  const now = options.now ?? Date.now;
  const knownContacts = new Set<string>();

  /** Creates the contact the first time its author writes, or refreshes it if it exists. */
  async function ensureContact(chatbotId: string, contact: InboundMessage['contact']): Promise<void> {
    const key = `${chatbotId}\u0000${contact.id}`;
    if (knownContacts.has(key)) return;
    const fields = { name: contact.name, email: contact.email };
    try {
      await hub.createContacts(chatbotId, [{ external_id: contact.id, ...fields }]);
    } catch (error) {
      if (!(error instanceof HubApiError && error.status === 409)) throw error;
      await hub.updateContact(chatbotId, contact.id, fields).catch((refresh: unknown) => {
        // Another contact may hold this email; the chat goes on without it.
        logger.warn({ err: refresh, contactId: contact.id }, 'could not refresh contact');
      });
    }
    knownContacts.add(key);
  }

  /** The answer's "Sources" line ('' for none); an answer is worth more than its citations, so a failure is ''. */
  async function citationsOf({ chatbotId, messageId }: AnswerRef): Promise<string> {
    try {
      return sourcesLine(platform, await hub.messageSources(chatbotId, messageId));
    } catch (error) {
      logger.warn({ err: error, messageId }, 'could not read the sources of an answer');
      return '';
    }
  }

  // The hub's store holds these, so every instance of the adapter shares them and a restart keeps them.
  const messageKey = (messageId: string) => `${platform}:message:${messageId}`;
  const threadKey = (threadId: string) => `${platform}:thread:${threadId}`;

  return {
    claimMessage: (messageId) => hub.claim(messageKey(messageId), MESSAGE_CLAIM_SECONDS),
    async joinThread(threadId) {
      await hub.claim(threadKey(threadId), THREAD_SECONDS);
    },
    inThread: (threadId) => hub.isHeld(threadKey(threadId)),
    suggestions: async (chatbotId) => (await hub.chatbotPrompts(chatbotId)).suggestedMessages,
    firstReply: (chatbotId, conversationId) => hub.claim(`${platform}:greeted:${chatbotId}:${conversationId}`, THREAD_SECONDS),

    async route(message) {
      const binding = await hub.findBinding({ platform, workspaceId: message.workspaceId, channelId: message.channelId });
      const addressed = message.direct || message.mentioned || message.followUp;
      if (!binding) return addressed ? { kind: 'unbound' } : { kind: 'ignore' };
      return addressed || binding.mode === 'all' ? { kind: 'answer', binding } : { kind: 'ignore' };
    },

    async answer(message, binding, sink) {
      let reply = '';
      try {
        await ensureContact(binding.chatbotId, message.contact);
        let lastUpdate = now();
        const { messageId, kind, pieces } = await hub.chat({
          chatbotId: binding.chatbotId,
          messages: message.history,
          conversationId: message.conversationId,
          contactId: message.contact.id,
          source,
        });
        for await (const piece of pieces) {
          reply += piece;
          if (now() - lastUpdate >= interval) {
            lastUpdate = now();
            await sink.update(reply);
          }
        }
        // Nothing, under no message id: a person has the conversation (or is being asked for), and
        // the message only went to them; the team's replies come through the handoff notices. Nor
        // is a waiting message the owner left empty said: neither platform posts an empty message.
        if (!reply && (messageId === undefined || kind === 'handoff')) return false;
        // What a handoff says (the waiting message) answers nothing: it cites nothing and is not rated.
        const answer = messageId === undefined || kind === 'handoff' ? undefined : { chatbotId: binding.chatbotId, messageId };
        const cited = answer ? await citationsOf(answer) : '';
        await sink.finish(cited ? `${reply}\n\n${cited}` : reply, answer);
      } catch (error) {
        logger.error({ err: error, conversationId: message.conversationId }, 'could not answer a message');
        const quota = error instanceof HubApiError && error.status === 403;
        await sink.finish(quota ? QUOTA_USED : HUB_UNAVAILABLE);
      }
      return true;
    },
  };
}
