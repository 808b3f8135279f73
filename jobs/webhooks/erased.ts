import { erasableSubject } from '../../src/domain/webhook-events.js';
import type { Store, WebhookDelivery } from '../../src/store/port.js';

// Erasing a person removes the deliveries that carry them, but the job may have read their new lead
// or group of unanswered questions just before and enqueue its event just after, on either store.
// Whether the record still stands is asked as the delivery is about to be sent, so erasure wins
// whenever it came, a crash between two writes included.

/** Whether the lead or group `delivery` carries of a person was erased since the event was enqueued. */
export async function carriesErased(store: Store, delivery: WebhookDelivery): Promise<boolean> {
  const subject = erasableSubject(delivery);
  if (!subject || delivery.chatbotId === null) return false;
  const records = subject.kind === 'lead' ? store.leads : store.unanswered;
  return (await records.find(delivery.chatbotId, subject.id)) === undefined;
}
