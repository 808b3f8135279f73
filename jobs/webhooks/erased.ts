import { erasableSubject, type ErasableSubject } from '../../src/domain/webhook-events.js';
import type { Store, WebhookDelivery } from '../../src/store/port.js';

// Erasing a person removes the deliveries that carry them, but the job may have read their new lead
// or group of unanswered questions just before and enqueue its event just after, on either store;
// a handoff requested or resolved as the conversation is erased is announced just after it too,
// and a delivery claimed before the erasure is sent after it. Whether the record still stands is
// asked as the delivery is about to be sent, so erasure wins whenever it came, a crash between two
// writes included.

/** Whether the record still stands; a conversation's handoff goes with it, and is read without its messages. */
const stands: Record<ErasableSubject['kind'], (store: Store, chatbotId: string, id: string) => Promise<unknown>> = {
  lead: (store, chatbotId, id) => store.leads.find(chatbotId, id),
  group: (store, chatbotId, id) => store.unanswered.find(chatbotId, id),
  conversation: (store, chatbotId, id) => store.handoffs.find(chatbotId, id),
};

/** Whether the lead, group or conversation `delivery` carries of a person was erased since the event was enqueued. */
export async function carriesErased(store: Store, delivery: WebhookDelivery): Promise<boolean> {
  const subject = erasableSubject(delivery);
  if (!subject || delivery.chatbotId === null) return false;
  return (await stands[subject.kind](store, delivery.chatbotId, subject.id)) === undefined;
}
