import type { QueryFilter } from 'mongoose';
import type { MongoModels, WebhookDeliveryDoc } from './models.js';

/**
 * Deletes the chatbot's deliveries the event keys name, with their attempts (first, as the prune
 * does). Deliveries are found by their event keys (domain/webhook-events.ts), as the port documents
 * them: the body is a string the store does not read.
 */
export async function deleteDeliveries(
  { webhookDeliveries, webhookAttempts }: MongoModels,
  chatbotId: string,
  eventKeys: QueryFilter<WebhookDeliveryDoc>[],
): Promise<void> {
  const found = await webhookDeliveries.find({ chatbotId, $or: eventKeys }, { _id: 1 }).lean<{ _id: string }[]>();
  const ids = found.map(({ _id }) => _id);
  if (ids.length === 0) return;
  await webhookAttempts.deleteMany({ deliveryId: { $in: ids } });
  await webhookDeliveries.deleteMany({ _id: { $in: ids } });
}
