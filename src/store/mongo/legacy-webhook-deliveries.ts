import type { mongo } from 'mongoose';
import type { MongoModels } from './models.js';

// Data migration at start-up: hubs before deliveries named their chatbot stored it only in the
// event's body. Each such delivery, and its attempts, is given the chatbot its body names (null for
// a ping of an account-wide webhook), so the deletion of the chatbot, or the repair after one made
// earlier, removes them. Re-running it (or running it on several instances at once) finds nothing
// left to do.

const UNNAMED = { chatbotId: { $exists: false } };

export async function nameDeliveryChatbots(models: MongoModels): Promise<void> {
  // The raw collections: through the schema, a missing field would read as its default.
  const deliveries = models.webhookDeliveries.collection as unknown as mongo.Collection<{ _id: string; body: string }>;
  const attempts = models.webhookAttempts.collection as unknown as mongo.Collection;
  for await (const delivery of deliveries.find(UNNAMED, { projection: { body: 1 } })) {
    const { chatbotId = null } = JSON.parse(delivery.body) as { chatbotId?: string | null };
    await deliveries.updateOne({ _id: delivery._id, ...UNNAMED }, { $set: { chatbotId } });
    await attempts.updateMany({ deliveryId: delivery._id, ...UNNAMED }, { $set: { chatbotId } });
  }
}
