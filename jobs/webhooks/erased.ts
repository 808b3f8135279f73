import { erasableSubject, type ErasableSubject } from '../../src/domain/webhook-events.js';
import type { Store, WebhookDelivery } from '../../src/store/port.js';

// Erasing a person removes the deliveries that carry them, but the job may have read their new lead
// or group of unanswered questions just before and enqueue its event just after, on either store;
// a handoff requested or resolved as the conversation is erased is announced just after it too,
// and a delivery claimed before the erasure is sent after it. Whether the record still stands is
// asked as the delivery is about to be sent (and again once its receiver's connection is open), so
// erasure wins whenever it came, a crash between two writes included.

/**
 * Whether the record still stands. A handoff event's conversation stands while the conversation
 * under its id is the incarnation the event was about: one begun afresh under an erased one's id
 * is another, whatever the clocks of the processes that wrote them say, while a conversation kept
 * and handed over again since still sends its earlier handoffs' events. Read without the messages.
 */
async function stands(store: Store, chatbotId: string, subject: ErasableSubject): Promise<boolean> {
  switch (subject.kind) {
    case 'lead':
      return (await store.leads.find(chatbotId, subject.id)) !== undefined;
    case 'group':
      return (await store.unanswered.find(chatbotId, subject.id)) !== undefined;
    case 'conversation':
      return (await store.conversations.incarnation(chatbotId, subject.id)) === subject.incarnation;
  }
}

/** Whether the lead, group or conversation `delivery` carries of a person was erased since the event was enqueued. */
export async function carriesErased(store: Store, delivery: WebhookDelivery): Promise<boolean> {
  const subject = erasableSubject(delivery);
  if (!subject || delivery.chatbotId === null) return false;
  return !(await stands(store, delivery.chatbotId, subject));
}
