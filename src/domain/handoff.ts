import type { Account, ChangedHandoff, Chatbot, ConversationMessage, ConversationSource, DueHandoff, Handoff, HandoffChange, HandoffSnapshot, HandoffStatus, Store } from '../store/port.js';
import { isOpenHandoff } from '../store/port.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { notFound } from './errors.js';
import { followUpNotice, replyNotice, requestNotice } from './handoff-notices.js';
import { leadRequest } from './lead-capture.js';
import { handoffChanged } from './webhook-events.js';
import type { ChatTurn } from '../engine/responder.js';
import { offlineMessageIn } from '../settings/default-messages.js';
import type { Language } from '../settings/languages.js';

// Human handoff: a conversation handed to a person in the team's Slack or Discord. While it is
// open (pending or active) the chatbot stays silent and the person's messages are only saved, for
// the adapter to relay; it closes when the team resolves it, or when its time runs out.

/** What the chatbot says when a conversation comes back to it, in each language the widget speaks. */
export const HANDED_BACK: Record<Language, string> = {
  en: 'You are back with the assistant. Ask me anything.',
  es: 'Vuelves a hablar con el asistente. Pregúntame lo que quieras.',
  de: 'Sie sind wieder beim Assistenten. Fragen Sie mich, was Sie möchten.',
  fr: 'Vous êtes de retour avec l’assistant. Posez-moi vos questions.',
  it: 'Sei di nuovo con l’assistente. Chiedimi pure quello che vuoi.',
  nl: 'Je bent weer bij de assistent. Vraag me wat je wilt.',
};

const afterMinutes = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);

/** The conversation's handoff while it is open, else undefined. */
export async function openHandoff(store: Store, chatbotId: string, conversationId: string): Promise<Handoff | undefined> {
  const handoff = await store.handoffs.find(chatbotId, conversationId);
  return isOpenHandoff(handoff) ? handoff : undefined;
}

/** Hands a saved conversation to a person, unless it is with one already; answers the new handoff. */
export async function requestHandoff(store: Store, chatbot: Chatbot, conversationId: string, at: Date): Promise<Handoff | undefined> {
  const dueAt = afterMinutes(at, chatbot.settings.handoff.waitMinutes);
  const notice = await requestNotice(store, chatbot, conversationId, { status: 'pending', requestedAt: at, takenBy: null }, at);
  const handoff = await store.handoffs.request(chatbot.id, conversationId, at, dueAt, notice);
  if (handoff) await announce(store, chatbot, 'handoff.requested', conversationId, handoff, at);
  return handoff;
}

/**
 * Settles a handoff whose time ran out, unless something moved it on since it was claimed: nobody
 * took it (missed: the person is told, and asked for their details again when the chatbot collects
 * them), or the team went quiet (resolved: the chatbot takes over again). Answers the new status.
 */
export async function settleTimeout(store: Store, due: DueHandoff, at: Date): Promise<HandoffStatus | undefined> {
  const status = due.status === 'pending' ? 'missed' : 'resolved';
  const { chatbotId, conversationId, accountId } = due;
  const chatbot = await store.chatbots.find(accountId, chatbotId);
  if (!chatbot) return undefined;
  const conversation = await heldIn(store, chatbot, conversationId);
  const handoff: HandoffSnapshot = { status, requestedAt: due.requestedAt, takenBy: due.takenBy };
  const said =
    status === 'missed'
      ? [offlineMessageIn(chatbot.settings.handoff.offlineMessage, conversation.lang), missedLeadRequest(chatbot, conversation)]
      : [HANDED_BACK[conversation.lang ?? 'en']];
  const change: HandoffChange = {
    status,
    dueAt: null,
    at,
    notice: followUpNotice(chatbot, conversationId, handoff, at),
    said: saying(chatbot, conversation, handoff, { content: said.filter(Boolean).join('\n\n'), kind: 'handoff' }, at),
  };
  const settled = await store.handoffs.transition(chatbotId, conversationId, [due.status], change, due.dueAt ?? undefined);
  if (!settled) return undefined;
  await announce(store, chatbot, 'handoff.resolved', conversationId, settled, at);
  return status;
}

/**
 * The request for contact details after the offline message; none in the widget, whose window
 * offers its details form again instead (under the same title, which the request would repeat).
 */
function missedLeadRequest(chatbot: Chatbot, { source }: HeldConversation): string | undefined {
  return source === 'Widget or Iframe' ? undefined : leadRequest(chatbot.settings);
}

/**
 * A conversation, where it takes place (undefined once deleted) and the language its person reads
 * (the widget's, for the hub's own texts; English where never said).
 */
type HeldConversation = { id: string; source: ConversationSource | undefined; lang: Language | undefined };

/** Only where the conversation takes place and in what language: a long one is not read whole for each message. */
async function heldIn(store: Store, chatbot: Chatbot, conversationId: string): Promise<HeldConversation> {
  const header = await store.conversations.header(chatbot.id, conversationId);
  return { id: conversationId, source: header?.source, lang: header?.lang };
}

const noOpenHandoff = (conversationId: string) => notFound(`conversation ${conversationId} has no open handoff`);

/** A team member takes a pending handoff (one already taken stays with its taker); answers its state. */
export async function takeHandoff(store: Store, account: Account, chatbotId: string, conversationId: string, name: string): Promise<Handoff> {
  const chatbot = await findOwnedChatbot(store, account, chatbotId);
  const at = new Date();
  const dueAt = afterMinutes(at, chatbot.settings.handoff.idleMinutes);
  const taken = await store.handoffs.transition(chatbot.id, conversationId, ['pending'], { status: 'active', takenBy: name, dueAt, at });
  const handoff = taken ?? (await openHandoff(store, chatbot.id, conversationId));
  if (!handoff) throw noOpenHandoff(conversationId);
  return handoff;
}

/**
 * A team member's reply, saved as an assistant message that names them; the first one takes a
 * pending handoff, and each keeps an active one from going idle. Answers the handoff's state.
 */
export async function replyInHandoff(
  store: Store,
  account: Account,
  input: { chatbotId: string; conversationId: string; name: string; text: string },
): Promise<Handoff> {
  const chatbot = await findOwnedChatbot(store, account, input.chatbotId);
  const { conversationId, name } = input;
  const conversation = await heldIn(store, chatbot, conversationId);
  const replied = await moveOpen(store, chatbot, conversationId, (open, at) => {
    const takenBy = open.status === 'pending' ? name : open.takenBy;
    const handoff: HandoffSnapshot = { status: 'active', requestedAt: open.requestedAt, takenBy };
    const said = saying(chatbot, conversation, handoff, { content: input.text, author: { type: 'human', name } }, at);
    return { status: 'active', takenBy, dueAt: afterMinutes(at, chatbot.settings.handoff.idleMinutes), at, said };
  });
  if (!replied) throw noOpenHandoff(conversationId);
  return replied;
}

/** The team hands the conversation back to the chatbot, which says so; answers the handoff's state. */
export async function resolveHandoff(store: Store, account: Account, chatbotId: string, conversationId: string): Promise<Handoff> {
  const chatbot = await findOwnedChatbot(store, account, chatbotId);
  const resolved = await handBack(store, chatbot, conversationId);
  if (!resolved) throw noOpenHandoff(conversationId);
  return resolved;
}

/**
 * Resolves the conversation's open handoff as the team's hand-back does: the chatbot says so (to
 * the person, where they talk), the team's thread is told it closed, and `handoff.resolved` goes
 * out. Answers the handoff changed, undefined when none is open.
 */
export async function handBack(store: Store, chatbot: Chatbot, conversationId: string): Promise<ChangedHandoff | undefined> {
  const conversation = await heldIn(store, chatbot, conversationId);
  const resolved = await moveOpen(store, chatbot, conversationId, (open, at) => {
    const handoff: HandoffSnapshot = { status: 'resolved', requestedAt: open.requestedAt, takenBy: open.takenBy };
    const notice = followUpNotice(chatbot, conversationId, handoff, at);
    return { status: 'resolved', dueAt: null, at, notice, said: saying(chatbot, conversation, handoff, { content: HANDED_BACK[conversation.lang ?? 'en'], kind: 'handoff' }, at) };
  });
  if (resolved) await announce(store, chatbot, 'handoff.resolved', conversationId, resolved, resolved.updatedAt);
  return resolved;
}

/** How many open handoffs handBackAll reads at a time. */
const HAND_BACK_BATCH = 50;

/**
 * Hands every open handoff of the chatbot back to it (its handoff was turned off), each as
 * handBack does: the people waiting are told the chatbot answers again, the team that each closed.
 */
export async function handBackAll(store: Store, chatbot: Chatbot): Promise<void> {
  const open = { handoffStatuses: ['pending', 'active'] as HandoffStatus[] };
  for (;;) {
    // Each one handed back leaves the listing, so the first page holds the next ones.
    const batch = await store.conversations.list(chatbot.id, open, { page: 1, size: HAND_BACK_BATCH });
    if (batch.length === 0) return;
    for (const conversation of batch) await handBack(store, chatbot, conversation.id);
  }
}

/**
 * Saves what the person says while a person has the conversation (and the language they read, when
 * said), with the notices taking it to the handoff's thread, in the write that finds the handoff
 * still open as read; answers the handoff, or undefined when none is open (then the chatbot answers
 * them as any other message).
 */
export function relayInHandoff(
  store: Store,
  chatbot: Chatbot,
  conversationId: string,
  messages: ChatTurn[],
  lang?: Language,
): Promise<Handoff | undefined> {
  // The handoff is kept as it stands: the change only makes the write depend on it.
  return moveOpen(store, chatbot, conversationId, (open, at) => ({
    status: open.status,
    dueAt: open.dueAt,
    at,
    said: {
      messages: messages.map((message) => ({ ...message, createdAt: at })),
      notices: messages.map(({ content }) => followUpNotice(chatbot, conversationId, open, at, content)).filter((notice) => notice !== undefined),
      lang,
    },
  }));
}

/**
 * Applies the change `move` makes of the open handoff as read, and only while it stays so (its
 * dueAt moves with every change), so the notices report the very handoff changed; read again
 * after another change. Answers the handoff changed, undefined when none is open.
 */
async function moveOpen(
  store: Store,
  chatbot: Chatbot,
  conversationId: string,
  move: (open: Handoff, at: Date) => HandoffChange,
): Promise<ChangedHandoff | undefined> {
  for (;;) {
    // Taken before the read: a change that came before it is older, and one after it makes this write miss.
    const at = new Date();
    const open = await openHandoff(store, chatbot.id, conversationId);
    if (!open) return undefined;
    const moved = await store.handoffs.transition(chatbot.id, conversationId, [open.status], move(open, at), open.dueAt ?? undefined);
    if (moved) return moved;
  }
}

/**
 * An assistant message that the handoff's change says (what the handoff says, or a team member's
 * reply); for a person in Slack or Discord, with the notice that takes it to them, unless it says
 * nothing (an offline message left empty), which neither platform would post.
 */
function saying(
  chatbot: Chatbot,
  { id, source }: HeldConversation,
  handoff: HandoffSnapshot,
  said: Pick<ConversationMessage, 'content' | 'kind' | 'author'>,
  at: Date,
): HandoffChange['said'] {
  const notice = source && said.content && replyNotice(chatbot, { id, source }, handoff, said, at);
  return { messages: [{ role: 'assistant', createdAt: at, ...said }], notices: notice ? [notice] : [] };
}

/** Puts the event in the outbox of every webhook subscribed to it. */
async function announce(
  store: Store,
  chatbot: Chatbot,
  eventType: 'handoff.requested' | 'handoff.resolved',
  conversationId: string,
  handoff: ChangedHandoff,
  at: Date,
): Promise<void> {
  const webhooks = await store.webhooks.subscribers(chatbot.accountId, chatbot.id, eventType);
  for (const webhook of webhooks) {
    await store.webhookOutbox.enqueue(handoffChanged(webhook, eventType, { chatbotId: chatbot.id, conversationId, handoff }, at));
  }
}
