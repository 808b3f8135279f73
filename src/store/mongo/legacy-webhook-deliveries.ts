import type { mongo } from 'mongoose';
import type { MongoModels } from './models.js';

// Data migration at start-up: hubs before deliveries named their chatbot stored it only in the
// event's body. Each such delivery, and its attempts, is given the chatbot its body names (null for
// a ping of an account-wide webhook), so the deletion of the chatbot, or the repair after one made
// earlier, removes them. Re-running it (or running it on several instances at once) finds nothing
// left to do.

const UNNAMED = { chatbotId: { $exists: false } };
/** Deliveries named per round trip: an outbox of a million takes a few thousand, not two million. */
const BATCH = 500;

type Named = { deliveryId: string; chatbotId: string | null };

export async function nameDeliveryChatbots(models: MongoModels): Promise<void> {
  // The raw collections: through the schema, a missing field would read as its default.
  const deliveries = models.webhookDeliveries.collection as unknown as mongo.Collection<{ _id: string; body: string }>;
  const attempts = models.webhookAttempts.collection as unknown as mongo.Collection;
  const name = async (batch: Named[]) => {
    if (batch.length === 0) return;
    const set = ({ chatbotId }: Named) => ({ $set: { chatbotId } });
    await deliveries.bulkWrite(batch.map((named) => ({ updateOne: { filter: { _id: named.deliveryId, ...UNNAMED }, update: set(named) } })));
    await attempts.bulkWrite(batch.map((named) => ({ updateMany: { filter: { deliveryId: named.deliveryId, ...UNNAMED }, update: set(named) } })));
  };
  const batch: Named[] = [];
  for await (const delivery of deliveries.find(UNNAMED, { projection: { body: 1 } })) {
    const { chatbotId = null } = JSON.parse(delivery.body) as { chatbotId?: string | null };
    batch.push({ deliveryId: delivery._id, chatbotId });
    if (batch.length === BATCH) await name(batch.splice(0));
  }
  await name(batch);
}
