import type { ActivityTally } from '../store/activity-counters.js';
import type { Language } from '../settings/languages.js';
import type {
  Account,
  Chatbot,
  Conversation,
  ConversationListFilter,
  ConversationSource,
  Feedback,
  Lead,
  MessageSource,
  NewMessage,
  Page,
  Revision,
  Store,
} from '../store/port.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { invalidRequest, notFound, type OnBackgroundError } from './errors.js';
import { kindOf } from './message-kinds.js';
import { correctQaAnswer, type SourceLimits } from './sources.js';
import { recordUnanswered } from './unanswered.js';

// Conversation history: what was said in a saved conversation (one with a conversationId).

/** One turn of a conversation: the messages it added, in order. */
export type Exchange = {
  conversationId: string;
  /** Where the conversation started; kept from its first exchange. */
  source: ConversationSource;
  contactId: string | null;
  /** The language the person reads, when the client says (the widget's window); the latest is kept. */
  lang?: Language;
  messages: NewMessage[];
  /** When the turn took place: a conversation it creates begins then, as its messages are dated. */
  at: Date;
  /** Counted with the exchange (see ConversationAppend). */
  tally?: ActivityTally;
};

/** Appends an exchange to its conversation, creating the conversation on the first one. */
export function recordExchange(store: Store, chatbot: Chatbot, exchange: Exchange): Promise<void> {
  return store.conversations.append({
    chatbotId: chatbot.id,
    accountId: chatbot.accountId,
    id: exchange.conversationId,
    source: exchange.source,
    contactId: exchange.contactId,
    lang: exchange.lang,
    messages: exchange.messages,
    at: exchange.at,
    tally: exchange.tally,
  });
}

/** A listed conversation, with the lead collected in it when there is one. */
export type ListedConversation = Conversation & { lead?: Lead };

/**
 * Newest first; each of the chatbot's messages says what it is, those saved before the mark too,
 * and each conversation carries its lead (the page's leads read at once).
 * `sources` absent means every source; an empty list matches nothing.
 */
export async function listConversations(
  store: Store,
  account: Account,
  chatbotId: string,
  filter: ConversationListFilter,
  page: Page,
): Promise<ListedConversation[]> {
  const chatbot = await findOwnedChatbot(store, account, chatbotId);
  if (filter.sources?.length === 0) return [];
  const conversations = await store.conversations.list(chatbotId, filter, page);
  if (conversations.length === 0) return [];
  const leads = await store.leads.findForConversations(chatbotId, conversations.map((conversation) => conversation.id));
  const leadOf = new Map(leads.map((lead) => [lead.conversationId, lead]));
  return conversations.map((conversation) => {
    const lead = leadOf.get(conversation.id);
    return {
      ...conversation,
      ...(lead && { lead }),
      messages: conversation.messages.map((message) => {
        const kind = kindOf(message, chatbot);
        return kind ? { ...message, kind } : message;
      }),
    };
  });
}

/**
 * A reader's 👍/👎 on one of the chatbot's answers; a later rating replaces an earlier one. The
 * answer's first 👎 counts the question as unanswered (once, however the rating changes after),
 * after the rating is saved and without delaying or failing it; not on a decline (counted when it
 * was given), on what a handoff says (which answers no question), nor on a team member's reply in a
 * handoff, which the chatbot did not give (resolving it would teach the chatbot to answer "hello?").
 */
export async function rateAnswer(
  store: Store,
  account: Account,
  chatbotId: string,
  messageId: string,
  feedback: Feedback,
  onError: OnBackgroundError,
): Promise<void> {
  const chatbot = await findOwnedChatbot(store, account, chatbotId);
  await rateChatbotAnswer(store, chatbot, messageId, feedback, onError);
}

/** A rating of one of `chatbot`'s answers, by whoever the caller let rate it (see rateAnswer). */
export async function rateChatbotAnswer(
  store: Store,
  chatbot: Chatbot,
  messageId: string,
  feedback: Feedback,
  onError: OnBackgroundError,
): Promise<void> {
  const chatbotId = chatbot.id;
  const answered = feedback === 'down' ? await store.conversations.answeredQuestion(chatbotId, messageId) : undefined;
  const rated = await store.conversations.setFeedback(chatbotId, messageId, feedback);
  if (!rated) throw notFound(`chatbot ${chatbotId} has no answer ${messageId}`);
  if (!rated.firstDown || !answered || kindOf(answered.answer, chatbot) !== 'answer') return;
  const example = { conversationId: answered.conversationId, messageId, source: answered.source, askedAt: new Date() };
  recordUnanswered(store, chatbot, answered.question, example).catch((error: unknown) =>
    onError(error, 'recording an unanswered question'),
  );
}

/**
 * The owner's correction of one of the chatbot's answers or declines: a Q&A source of the question
 * it answered and the corrected answer (so the chatbot gives it from then on), kept on the answer
 * too (whose content stays as it was) for the history to show. What a handoff says and a team
 * member's reply are refused: they answered no question of the chatbot's.
 */
export async function reviseAnswer(
  store: Store,
  account: Account,
  chatbotId: string,
  messageId: string,
  answer: string,
  limits?: SourceLimits,
): Promise<Revision> {
  const chatbot = await findOwnedChatbot(store, account, chatbotId);
  const answered = await store.conversations.answeredQuestion(chatbotId, messageId);
  if (!answered) throw notFound(`chatbot ${chatbotId} has no answer ${messageId}`);
  const kind = kindOf(answered.answer, chatbot);
  if (!answered.question || (kind !== 'answer' && kind !== 'decline')) throw invalidRequest(`message ${messageId} answered no question`);
  await correctQaAnswer(store, account, chatbotId, { question: answered.question, answer }, limits);
  const revision = { answer, createdAt: new Date() };
  await store.conversations.setRevision(chatbotId, messageId, revision);
  return revision;
}

/** The sources one of the chatbot's answers cites ([] for none). */
export async function answerSources(store: Store, account: Account, chatbotId: string, messageId: string): Promise<MessageSource[]> {
  await findOwnedChatbot(store, account, chatbotId);
  const sources = await store.conversations.messageSources(chatbotId, messageId);
  if (!sources) throw notFound(`chatbot ${chatbotId} has no answer ${messageId}`);
  return sources;
}

/**
 * Erases one of the account's conversations with everything kept of it (see
 * ConversationRepository.delete); another account's, like an unknown one, is not found.
 */
export async function deleteConversation(store: Store, account: Account, chatbotId: string, conversationId: string): Promise<void> {
  await findOwnedChatbot(store, account, chatbotId);
  if (!(await store.conversations.delete(chatbotId, conversationId))) throw notFound(`conversation ${conversationId}`);
}
