import type { Chatbot, DueHandoff, Handoff, HandoffStatus, Store } from '../store/port.js';
import { OPEN_HANDOFF } from '../store/port.js';
import { leadRequest } from './lead-capture.js';
import { handoffChanged } from './webhook-events.js';

// Human handoff: a conversation handed to a person in the team's Slack or Discord. While it is
// open (pending or active) the chatbot stays silent and the person's messages are only saved, for
// the adapter to relay; it closes when the team resolves it, or when its time runs out.

/** What the chatbot says when a conversation comes back to it. */
export const HANDED_BACK = 'You are back with the assistant. Ask me anything.';

const afterMinutes = (at: Date, minutes: number) => new Date(at.getTime() + minutes * 60_000);

/** The conversation's handoff while it is open, else undefined. */
export async function openHandoff(store: Store, chatbotId: string, conversationId: string): Promise<Handoff | undefined> {
  const handoff = await store.handoffs.find(chatbotId, conversationId);
  return handoff && OPEN_HANDOFF.includes(handoff.status) ? handoff : undefined;
}

/** Hands a saved conversation to a person, unless it is with one already; answers the new handoff. */
export async function requestHandoff(store: Store, chatbot: Chatbot, conversationId: string, at: Date): Promise<Handoff | undefined> {
  const dueAt = afterMinutes(at, chatbot.settings.handoff.waitMinutes);
  const handoff = await store.handoffs.request(chatbot.id, conversationId, at, dueAt);
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
  const settled = await store.handoffs.transition(chatbotId, conversationId, [due.status], { status, dueAt: null, at }, due.dueAt ?? undefined);
  if (!settled) return undefined;
  const chatbot = await store.chatbots.find(accountId, chatbotId);
  if (!chatbot) return undefined;
  const { settings } = chatbot;
  const said = status === 'missed' ? [settings.handoff.offlineMessage, leadRequest(settings)] : [HANDED_BACK];
  await store.conversations.append({
    chatbotId,
    accountId,
    id: conversationId,
    // The conversation exists: source and contact are kept from its first exchange.
    source: 'API',
    contactId: null,
    messages: [{ role: 'assistant', content: said.filter(Boolean).join('\n\n'), createdAt: at }],
    at,
  });
  await announce(store, chatbot, 'handoff.resolved', conversationId, settled, at);
  return status;
}

/** Puts the event in the outbox of every webhook subscribed to it. */
async function announce(
  store: Store,
  chatbot: Chatbot,
  eventType: 'handoff.requested' | 'handoff.resolved',
  conversationId: string,
  handoff: Handoff,
  at: Date,
): Promise<void> {
  const webhooks = await store.webhooks.subscribers(chatbot.accountId, chatbot.id, eventType);
  for (const webhook of webhooks) {
    await store.webhookOutbox.enqueue(handoffChanged(webhook, eventType, { chatbotId: chatbot.id, conversationId, handoff }, at));
  }
}
