import type {
  Account,
  Chatbot,
  Conversation,
  ConversationSource,
  Feedback,
  MessageSource,
  NewMessage,
  Page,
  Store,
  TimeRange,
} from '../store/port.js';
import { findOwnedChatbot } from './chatbots.js';
import { notFound } from './errors.js';

// Conversation history: what was said in a saved conversation (one with a conversationId).

/** One turn of a conversation: the messages it added, in order. */
export type Exchange = {
  conversationId: string;
  /** Where the conversation started; kept from its first exchange. */
  source: ConversationSource;
  contactId: string | null;
  messages: NewMessage[];
};

/** Appends an exchange to its conversation, creating the conversation on the first one. */
export function recordExchange(store: Store, chatbot: Chatbot, exchange: Exchange): Promise<void> {
  return store.conversations.append({
    chatbotId: chatbot.id,
    accountId: chatbot.accountId,
    id: exchange.conversationId,
    source: exchange.source,
    contactId: exchange.contactId,
    messages: exchange.messages,
    at: new Date(),
  });
}

export type ConversationFilter = TimeRange & { sources?: ConversationSource[] };

/** Newest first. */
export async function listConversations(
  store: Store,
  account: Account,
  chatbotId: string,
  filter: ConversationFilter,
  page: Page,
): Promise<Conversation[]> {
  await findOwnedChatbot(store, account, chatbotId);
  return store.conversations.list(chatbotId, filter, page);
}

/** A reader's 👍/👎 on one of the chatbot's answers; a later rating replaces an earlier one. */
export async function rateAnswer(
  store: Store,
  account: Account,
  chatbotId: string,
  messageId: string,
  feedback: Feedback,
): Promise<void> {
  await findOwnedChatbot(store, account, chatbotId);
  if (!(await store.conversations.setFeedback(chatbotId, messageId, feedback))) {
    throw notFound(`chatbot ${chatbotId} has no answer ${messageId}`);
  }
}

/** The sources one of the chatbot's answers cites ([] for none). */
export async function answerSources(store: Store, account: Account, chatbotId: string, messageId: string): Promise<MessageSource[]> {
  await findOwnedChatbot(store, account, chatbotId);
  const sources = await store.conversations.messageSources(chatbotId, messageId);
  if (!sources) throw notFound(`chatbot ${chatbotId} has no answer ${messageId}`);
  return sources;
}
