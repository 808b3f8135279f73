import type { QueryFilter } from 'mongoose';
import type { MongoModels, WebhookDeliveryDoc } from './models.js';

/**
 * Deletes the deliveries `ids` that still match `filter`, attempts first: a delivery a crash left
 * between the two goes the next time. Answers how many deliveries it deleted.
 */
export async function deleteDeliveries(
  { webhookDeliveries, webhookAttempts }: MongoModels,
  ids: string[],
  filter: QueryFilter<WebhookDeliveryDoc> = {},
): Promise<number> {
  if (ids.length === 0) return 0;
  await webhookAttempts.deleteMany({ deliveryId: { $in: ids } });
  return (await webhookDeliveries.deleteMany({ _id: { $in: ids }, ...filter })).deletedCount;
}

/**
 * Deletes the chatbot's deliveries the event keys name, with their attempts. Deliveries are found
 * by their event keys (domain/webhook-events.ts), as the port documents them: the body is a string
 * the store does not read.
 */
export async function deleteEventDeliveries(models: MongoModels, chatbotId: string, eventKeys: QueryFilter<WebhookDeliveryDoc>[]): Promise<void> {
  const found = await models.webhookDeliveries.find({ chatbotId, $or: eventKeys }, { _id: 1 }).lean<{ _id: string }[]>();
  await deleteDeliveries(models, found.map(({ _id }) => _id));
}
