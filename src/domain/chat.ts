import type { ChatEngine } from '../engine/index.js';
import type { ModelId } from '../settings/models.js';
import { greetingIn, waitingMessageIn } from '../settings/default-messages.js';
import type { Language } from '../settings/languages.js';
import { givesOnlyDetails } from '../engine/offline/compose.js';
import type { ChatTurn, ContactDetails, Responder, ResponderInput } from '../engine/responder.js';
import { chatCredits, chatFirstToken, chatReplies, retrievalDuration, secondsSince } from '../metrics.js';
import type { Account, Chatbot, Contact, ConversationSource, MessageKind, Store } from '../store/port.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { citedSources } from './citations.js';
import { recordExchange } from './conversations.js';
import { accessDenied, type OnBackgroundError } from './errors.js';
import { alreadyAsked, contactGivesAll, detailsIn, leadDetails, leadRequest } from './lead-capture.js';
import { saveLead } from './leads.js';
import { recordUnanswered } from './unanswered.js';
import { relayInHandoff, requestHandoff } from './handoff.js';
import { replyKind } from './message-kinds.js';
import { declinedTooOften, requestsHandoff } from './handoff-triggers.js';

// POST /chat as a use case: everything that can refuse the request (unknown chatbot, quota)
// happens in startChat, before a byte of the reply is sent; the reply itself is then produced
// whole or streamed, and only a reply produced in full is saved and counted.

export type ChatInput = {
  chatbotId: string;
  /** The conversation so far, ending with the user's message. */
  messages: ChatTurn[];
  conversationId?: string;
  contactId?: string;
  model?: ModelId;
  temperature?: number;
  source?: ConversationSource;
  /** The client collects details with its own form (the widget), so replies do not ask for them. */
  leadForm?: boolean;
  /**
   * The language the person reads (the widget's): the default waiting message is said in it, and
   * the conversation keeps it for the hub's texts said later; English without.
   */
  lang?: Language;
};

export type ChatReply = {
  /** The id the reply is saved under once complete; undefined when the conversation is not saved. */
  messageId?: string;
  /**
   * What the saved reply is, once that is known: at once for what a handoff says, once complete
   * for the engine's reply (an answer or a decline); undefined while unknown and when nothing is saved.
   */
  kind(): MessageKind | undefined;
  complete(signal: AbortSignal): Promise<string>;
  /** Pieces as they are generated. Ends early, saving nothing, when the signal aborts. */
  stream(signal: AbortSignal): AsyncIterable<string>;
};

export async function startChat(
  store: Store,
  engine: ChatEngine,
  account: Account,
  input: ChatInput,
  onError: OnBackgroundError,
): Promise<ChatReply> {
  const chatbot = await findOwnedChatbot(store, account, input.chatbotId);
  if (input.conversationId) {
    const handedOff = await handOffTurn(store, chatbot, input, input.conversationId);
    if (handedOff) return handedOff;
  }
  const period = new Date().toISOString().slice(0, 7);
  if (!(await store.usage.reserveMessage(account.id, period, account.quota.messagesPerMonth))) {
    throw accessDenied(`account ${account.name} used its ${account.quota.messagesPerMonth} messages for ${period}`);
  }
  const refund = () => store.usage.releaseMessage(account.id, period);

  let prepared: Prepared;
  let ids: string[] = [];
  try {
    prepared = await prepare(store, engine, chatbot, input);
    // Named before the first piece is sent, so a streamed reply can say where it will be saved.
    if (input.conversationId) ids = await store.conversations.reserveMessageIds(prepared.newMessages.length + 1);
  } catch (error) {
    await refund();
    throw error;
  }
  const { responder, responderInput, newMessages, history } = prepared;

  // The request for contact details rides on the first reply of a conversation that has none,
  // unless its contact is known with them all.
  const details = leadDetails(chatbot.settings, history);
  const request = leadRequest(chatbot.settings);
  const known = responderInput.contact !== undefined && contactGivesAll(chatbot.settings, responderInput.contact);
  const suffix = request && !input.leadForm && !known && !alreadyAsked(request, history) && !details ? `\n\n${request}` : '';

  const responderName = responder.name ?? 'offline';
  /** The reply as saved: what it is, with the sources it drew on when it drew on any. */
  const answer = (reply: string, kind: MessageKind) => {
    const sources = citedSources(responderInput.passages, reply, responder.name === undefined ? 'offline' : 'model');
    return { role: 'assistant' as const, content: reply, kind, ...(sources.length > 0 && { sources }) };
  };
  const source = input.source ?? 'API';
  const { handoff } = chatbot.settings;
  const waitingMessage = waitingMessageIn(handoff.waitingMessage, input.lang);
  /**
   * Whether the reply hands the conversation to a person (afterDeclines), and then what it ends
   * with: the waiting message, or nothing where the owner left it empty.
   */
  const handoffNote = (reply: string): string | undefined =>
    input.conversationId && declinedTooOften(handoff, history, reply) ? (waitingMessage && `\n\n${waitingMessage}`) : undefined;
  /** What the reply was saved as, once it is. */
  let savedKind: MessageKind | undefined;
  async function finish(reply: string, handingOff: boolean): Promise<void> {
    const at = new Date();
    const kind = replyKind(reply);
    const tally = { credits: 1, declined: Number(kind === 'decline') };
    if (input.conversationId) {
      await recordExchange(store, chatbot, {
        conversationId: input.conversationId,
        source,
        contactId: input.contactId ?? null,
        lang: input.lang,
        messages: [...newMessages, answer(reply, kind)].map((message, index) => ({
          ...message,
          id: ids[index],
          createdAt: at,
        })),
        at,
        tally,
      });
      savedKind = kind;
    } else {
      await store.activity.add(chatbot.id, at, tally);
    }
    const mentioned = responderInput.given;
    if (details && mentioned && (mentioned.email || mentioned.phone || mentioned.name)) {
      await saveLead(store, chatbot, { ...details, conversationId: input.conversationId });
    }
    chatReplies.inc({ responder: responderName, model: responderInput.model, source });
    chatCredits.inc();
    if (handingOff && input.conversationId) await requestHandoff(store, chatbot, input.conversationId, at);
    if (kind === 'decline') {
      // After the reply is saved, and not awaited: recording it never delays or fails the reply.
      const question = newMessages.map((message) => message.content).join('\n');
      const example = { conversationId: input.conversationId ?? null, messageId: ids.at(-1) ?? null, source, askedAt: at };
      recordUnanswered(store, chatbot, question, example).catch((error: unknown) => onError(error, 'recording an unanswered question'));
    }
  }

  return {
    messageId: ids.at(-1),
    kind: () => savedKind,
    async complete(signal) {
      try {
        const reply = (await responder.complete({ ...responderInput, signal })) + suffix;
        // A responder may finish regardless (the offline one does): a reply nobody received is not
        // saved or counted.
        signal.throwIfAborted();
        const note = handoffNote(reply);
        await finish(reply + (note ?? ''), note !== undefined);
        return reply + (note ?? '');
      } catch (error) {
        await refund();
        throw error;
      }
    },
    async *stream(signal) {
      let reply = '';
      let finished = false;
      const started = performance.now();
      try {
        for await (const piece of responder.stream({ ...responderInput, signal })) {
          if (!reply) chatFirstToken.observe({ responder: responderName }, secondsSince(started));
          reply += piece;
          yield piece;
        }
        if (signal.aborted) return;
        if (suffix) {
          reply += suffix;
          yield suffix;
        }
        const note = handoffNote(reply);
        if (note) {
          reply += note;
          yield note;
        }
        await finish(reply, note !== undefined);
        finished = true;
      } finally {
        if (!finished) await refund();
      }
    },
  };
}

/** The user's messages a request adds: those after the last assistant message it carries. */
function newTurns(messages: ChatTurn[]): ChatTurn[] {
  return messages.slice(messages.map((message) => message.role).lastIndexOf('assistant') + 1);
}

/** A handoff turn's reply, known before it is sent: what a handoff says when `messageId` names where it is saved. */
function handoffReply(text: string, messageId: string | undefined): ChatReply {
  return {
    messageId,
    kind: () => (messageId === undefined ? undefined : 'handoff'),
    complete: async () => text,
    async *stream() {
      if (text) yield text;
    },
  };
}

/**
 * A turn the chatbot does not answer, saved at once and costing no credit: the conversation is
 * with a person (the reply is empty; the message waits for the adapter to relay it), or the
 * message asks for one (the reply is the waiting message, and the handoff starts).
 */
async function handOffTurn(store: Store, chatbot: Chatbot, input: ChatInput, conversationId: string): Promise<ChatReply | undefined> {
  const newMessages = newTurns(input.messages);
  if (await relayInHandoff(store, chatbot, conversationId, newMessages, input.lang)) return handoffReply('', undefined);
  const { handoff } = chatbot.settings;
  if (!requestsHandoff(handoff, newMessages.map((message) => message.content).join('\n'))) return undefined;
  const waitingMessage = waitingMessageIn(handoff.waitingMessage, input.lang);
  const turn = [...newMessages, { role: 'assistant' as const, content: waitingMessage, kind: 'handoff' as const }];
  const ids = await store.conversations.reserveMessageIds(turn.length);
  const at = new Date();
  await recordExchange(store, chatbot, {
    conversationId,
    source: input.source ?? 'API',
    contactId: input.contactId ?? null,
    lang: input.lang,
    messages: turn.map((message, index) => ({ ...message, id: ids[index], createdAt: at })),
    at,
  });
  await requestHandoff(store, chatbot, conversationId, at);
  return handoffReply(waitingMessage, ids.at(-1));
}

type Prepared = {
  responder: Responder;
  responderInput: Omit<ResponderInput, 'signal'>;
  /** The user's messages this request adds to the conversation. */
  newMessages: ChatTurn[];
  /** The whole conversation as the responder sees it. */
  history: ChatTurn[];
};

async function prepare(store: Store, engine: ChatEngine, chatbot: Chatbot, input: ChatInput): Promise<Prepared> {
  const lastAssistant = input.messages.map((message) => message.role).lastIndexOf('assistant');
  const newMessages = newTurns(input.messages);
  // Clients either resend the whole conversation (as the hosted API expects) or, for a saved
  // conversation, only the new message; then the saved history supplies the context. Either way
  // the responder sees a bounded window of it, so a long conversation costs no more than a short one.
  const window = engine.historyMessages;
  const saved = input.conversationId && lastAssistant < 0
    ? await store.conversations.recentMessages(chatbot.id, input.conversationId, window)
    : [];
  const history: ChatTurn[] = [
    ...saved.map(({ role, content }) => ({ role, content })),
    ...(saved.length > 0 ? newMessages : input.messages),
  ].slice(-window);

  const contact = input.contactId ? await store.contacts.find(chatbot.id, input.contactId) : undefined;
  const question = newMessages.map((message) => message.content).join('\n');
  // The user's earlier question is the context a follow-up ("and on weekends?") leans on; a
  // message that only gave contact details asked nothing.
  const context = history
    .slice(0, history.length - newMessages.length)
    .findLast((turn) => turn.role === 'user' && !givesOnlyDetails(turn.content, detailsIn([turn])))?.content;
  const model = input.model ?? chatbot.settings.model;
  const responder = engine.responderFor(model);
  const retrieval = retrievalDuration.startTimer();
  // Only a model reads the sections around a passage; the offline responder quotes the passage.
  const passages = await engine.retriever.search(chatbot.id, { question, context }, { around: responder.name !== undefined });
  retrieval();

  return {
    responder,
    newMessages,
    history,
    responderInput: {
      chatbotName: chatbot.name,
      // A greeting answered with the greeting is saved as the one the person was shown (the default in their language).
      settings: { ...chatbot.settings, initialMessages: greetingIn(chatbot.settings.initialMessages, input.lang) },
      messages: history,
      passages,
      contact: contact && toContactDetails(contact),
      given: detailsIn(newMessages),
      model,
      temperature: input.temperature ?? chatbot.settings.temp,
      lang: input.lang,
    },
  };
}

function toContactDetails({ name, email, phonenumber, customAttributes }: Contact): ContactDetails {
  return { name, email, phonenumber, customAttributes };
}
