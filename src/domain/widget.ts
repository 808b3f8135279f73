import type { ChatEngine } from '../engine/index.js';
import { isOpenHandoff, type Chatbot, type Conversation, type Feedback, type Handoff, type Lead, type StoredMessage, type Store } from '../store/port.js';
import { startChat, type ChatReply } from './chat.js';
import { rateChatbotAnswer, recordExchange } from './conversations.js';
import { accessDenied, invalidRequest, notFound, type OnBackgroundError } from './errors.js';
import { handBack, requestHandoff } from './handoff.js';
import { collectsLeads } from './lead-capture.js';
import { saveLead, type LeadInput } from './leads.js';
import { PERSON_ASKED } from './person-asked.js';
import type { Language } from '../settings/languages.js';
import type { ChatbotSettings } from '../settings/chatbot-settings.js';
import { waitingMessageIn } from '../settings/default-messages.js';

// The website widget's use cases. Its routes carry no key: the chatbot id is the only handle,
// so every refusal (private, unknown, wrong site) looks the same from outside where it can.

const SOURCE = 'Widget or Iframe';

/** A public chatbot; a private or unknown one is `Resource not found`. */
export async function findWidgetChatbot(store: Store, chatbotId: string): Promise<Chatbot> {
  const chatbot = await store.chatbots.findPublic(chatbotId);
  if (!chatbot || chatbot.settings.visibility !== 'public') throw notFound(`widget of chatbot ${chatbotId}`);
  return chatbot;
}

/**
 * The host names a `domains` entry stands for. Entries may be written as URLs
 * (`https://www.example.com/shop`); only the host counts, and a listed host also allows its
 * subdomains (`example.com` allows `www.example.com`, not `badexample.com`).
 */
export function listedHost(entry: string): string | undefined {
  const host = entry
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d*$/, '')
    .replace(/^\*\./, '')
    .replace(/\.$/, '');
  return /^[a-z0-9.-]+$/.test(host) ? host : undefined;
}

export function listedHosts(settings: ChatbotSettings): string[] {
  return settings.domains.flatMap((entry) => listedHost(entry) ?? []);
}

/** Whether a page at `origin` may show the chatbot. Without the restriction, every page may. */
export function originAllowed(settings: ChatbotSettings, origin: string | undefined): boolean {
  if (!settings.onlyAllowOnAddedDomains) return true;
  if (!origin) return false;
  let host: string;
  try {
    host = new URL(origin).hostname.toLowerCase();
  } catch {
    return false;
  }
  return listedHosts(settings).some((listed) => host === listed || host.endsWith(`.${listed}`));
}

/** Refuses unless every origin the caller could show (host page, request Origin) is allowed. */
export function requireAllowedOrigins(chatbot: Chatbot, origins: (string | undefined)[]): void {
  for (const origin of origins) {
    if (!originAllowed(chatbot.settings, origin)) throw accessDenied(`chatbot ${chatbot.id} refuses ${origin ?? 'no origin'}`);
  }
}

/**
 * What a visitor's IP is counted for: messages (the chat, "Talk to a person"), and on counts of
 * their own ratings, details left (leads) and handoffs left ("+"), so none of these spends the
 * visitor's messages, yet none can be sent unbounded.
 */
export type IpLimited = 'message' | 'rating' | 'lead' | 'handoff-end';

const IP_LIMIT_KEY: Record<IpLimited, string> = {
  message: 'widget',
  rating: 'widget-rating',
  lead: 'widget-lead',
  'handoff-end': 'widget-handoff-end',
};

/**
 * Counts one `what` against `ipLimit` per `ipLimitTimeframe` seconds for this visitor IP and
 * chatbot, in the store so every instance shares the count; answers whether it is within.
 */
export async function withinIpLimit(store: Store, chatbot: Chatbot, ip: string, what: IpLimited = 'message', now = Date.now()): Promise<boolean> {
  const { ipLimit, ipLimitTimeframe } = chatbot.settings;
  if (ipLimit === 0 || ipLimitTimeframe === 0) return true;
  const windowMs = ipLimitTimeframe * 1000;
  const windowStart = now - (now % windowMs);
  const count = await store.rateLimits.hit(`${IP_LIMIT_KEY[what]}:${chatbot.id}:${ip}`, new Date(windowStart), windowMs);
  return count <= ipLimit;
}

/** One visitor message in a saved widget conversation; the owner's account pays the credit. */
export async function startWidgetChat(
  store: Store,
  engine: ChatEngine,
  chatbot: Chatbot,
  input: { conversationId: string; message: string; lang?: Language },
  onError: OnBackgroundError,
): Promise<ChatReply> {
  const account = await store.accounts.findById(chatbot.accountId);
  if (!account) throw notFound(`owner of chatbot ${chatbot.id}`);
  await requireWidgetSource(store, chatbot, input.conversationId);
  return startChat(store, engine, account, {
    chatbotId: chatbot.id,
    messages: [{ role: 'user', content: input.message }],
    conversationId: input.conversationId,
    source: SOURCE,
    leadForm: collectsLeads(chatbot.settings),
    lang: input.lang,
  }, onError);
}

/**
 * Refuses a conversation id that another source (an API client, Slack) already uses; answers the
 * conversation when it is saved.
 */
async function requireWidgetSource(store: Store, chatbot: Chatbot, conversationId: string): Promise<Conversation | undefined> {
  const saved = await store.conversations.find(chatbot.id, conversationId);
  if (saved && saved.source !== SOURCE) throw notFound(`conversation ${conversationId} is not the widget's`);
  return saved;
}

/**
 * The window's "Talk to a person": hands the conversation (new or saved) to the team as a
 * request in words would, saving the request (the button's words, in the window's `lang`) and the
 * waiting message (no credit is used). Answers the handoff and the messages saved; none when one
 * is open already.
 */
export async function requestWidgetHandoff(
  store: Store,
  chatbot: Chatbot,
  conversationId: string,
  lang: Language = 'en',
): Promise<{ handoff: Handoff; messages: StoredMessage[] }> {
  const { handoff: settings } = chatbot.settings;
  if (!settings.enabled || !settings.onRequest) throw invalidRequest(`chatbot ${chatbot.id} offers no handoff on request`);
  const { handoff: latest } = (await requireWidgetSource(store, chatbot, conversationId)) ?? {};
  if (latest && isOpenHandoff(latest)) return { handoff: latest, messages: [] };
  const said = [
    { role: 'user' as const, content: PERSON_ASKED[lang] },
    ...(settings.waitingMessage ? [{ role: 'assistant' as const, content: waitingMessageIn(settings.waitingMessage, lang), kind: 'handoff' as const }] : []),
  ];
  const ids = await store.conversations.reserveMessageIds(said.length);
  const at = new Date();
  const messages = said.map((message, index) => ({ ...message, id: ids[index] as string, createdAt: at }));
  await recordExchange(store, chatbot, { conversationId, source: SOURCE, contactId: null, lang, messages, at });
  // None when another request opened one in between: that one stands.
  const handoff = (await requestHandoff(store, chatbot, conversationId, at)) ?? (await store.handoffs.find(chatbot.id, conversationId));
  if (!handoff) throw notFound(`conversation ${conversationId}`);
  return { handoff, messages };
}

/**
 * The visitor leaves a widget conversation for a new one ("+"): its open handoff ends as the team's
 * hand-back would, so the team is not left waiting for someone who is gone. Answers the
 * conversation's latest handoff (none when it was never handed off; a closed one stays as it is).
 */
export async function leaveWidgetHandoff(store: Store, chatbot: Chatbot, conversationId: string): Promise<Handoff | undefined> {
  const { handoff } = await findWidgetConversation(store, chatbot, conversationId);
  if (!isOpenHandoff(handoff)) return handoff;
  return (await handBack(store, chatbot, conversationId)) ?? (await store.handoffs.find(chatbot.id, conversationId));
}

/** A widget conversation, to continue it after a reload; other sources' conversations stay hidden. */
export async function findWidgetConversation(store: Store, chatbot: Chatbot, conversationId: string): Promise<Conversation> {
  const conversation = await store.conversations.find(chatbot.id, conversationId);
  if (!conversation || conversation.source !== SOURCE) throw notFound(`conversation ${conversationId}`);
  return conversation;
}

/**
 * The visitor's 👍/👎 on one of the chatbot's messages in their own widget conversation, which
 * its id (random, made by their browser) proves as it does for the window's other calls: a
 * message of another conversation, chatbot or source is not found, as is a message of theirs.
 */
export async function rateWidgetAnswer(
  store: Store,
  chatbot: Chatbot,
  input: { conversationId: string; messageId: string; feedback: Feedback },
  onError: OnBackgroundError,
): Promise<void> {
  const { messages } = await findWidgetConversation(store, chatbot, input.conversationId);
  if (!messages.some((message) => message.id === input.messageId && message.role === 'assistant')) {
    throw notFound(`conversation ${input.conversationId} has no answer ${input.messageId}`);
  }
  await rateChatbotAnswer(store, chatbot, input.messageId, input.feedback, onError);
}

/** The lead form of a widget conversation: only the fields the settings make active are kept. */
export async function submitWidgetLead(
  store: Store,
  chatbot: Chatbot,
  input: Required<LeadInput>,
): Promise<Lead> {
  const fields = chatbot.settings.collectCustomerInformation;
  if (!collectsLeads(chatbot.settings)) throw invalidRequest(`chatbot ${chatbot.id} collects no details`);
  await findWidgetConversation(store, chatbot, input.conversationId);
  return saveLead(store, chatbot, {
    conversationId: input.conversationId,
    name: fields.name.active ? input.name : null,
    email: fields.email.active ? input.email : null,
    phone: fields.phone.active ? input.phone : null,
  });
}
