import { erasableSubject, type ErasableSubject } from '../../src/domain/webhook-events.js';
import type { Store, WebhookDelivery } from '../../src/store/port.js';

// Erasing a person removes the deliveries that carry them, but the job may have read their new lead
// or group of unanswered questions just before and enqueue its event just after, on either store;
// a handoff requested or resolved as the conversation is erased is announced just after it too,
// and a delivery claimed before the erasure is sent after it. Whether the record still stands is
// asked as the delivery is about to be sent, so erasure wins whenever it came, a crash between two
// writes included.

/**
 * Whether the record still stands. A handoff event's conversation stands while its handoff is the
 * one the event tells of, or the conversation under its id began no later than that one was
 * requested: one started afresh under an erased one's id began after (handoff or none), while a
 * conversation kept and handed over again since still sends its earlier handoff's events. The
 * first test keeps a handoff of a conversation created before turns set its start (a few ms late).
 * Read without the messages.
 */
async function stands(store: Store, chatbotId: string, subject: ErasableSubject): Promise<boolean> {
  switch (subject.kind) {
    case 'lead':
      return (await store.leads.find(chatbotId, subject.id)) !== undefined;
    case 'group':
      return (await store.unanswered.find(chatbotId, subject.id)) !== undefined;
    case 'conversation': {
      const handoff = await store.handoffs.find(chatbotId, subject.id);
      if (!handoff) return false;
      if (handoff.requestedAt.getTime() === subject.handoffRequestedAt.getTime()) return true;
      const createdAt = await store.conversations.createdAt(chatbotId, subject.id);
      return createdAt !== undefined && createdAt <= subject.handoffRequestedAt;
    }
  }
}

/** Whether the lead, group or conversation `delivery` carries of a person was erased since the event was enqueued. */
export async function carriesErased(store: Store, delivery: WebhookDelivery): Promise<boolean> {
  const subject = erasableSubject(delivery);
  if (!subject || delivery.chatbotId === null) return false;
  return !(await stands(store, delivery.chatbotId, subject));
}
