import type { mongo } from 'mongoose';
import type { MongoModels } from './models.js';

// Data migration at start-up: hubs before 0.2 kept a conversation's messages in an array inside
// its document, which MongoDB's 16 MiB document limit ends. Each such conversation has its
// messages moved to conversationMessages under their positions as sequence numbers, then the array
// removed, only if it still holds exactly what was moved. Re-running it (after a crash midway, or
// on several instances at once) finishes the job without duplicating a message. Stop hubs of the
// old version before starting the new one: they would keep writing arrays.

type LegacyMessage = { role: 'user' | 'assistant'; content: string; createdAt: Date };
type LegacyConversation = { _id: string; chatbotId: string; conversationId: string; messages: LegacyMessage[] };

const DUPLICATE_KEY = 11000;

export async function moveEmbeddedMessages(models: MongoModels): Promise<number> {
  // The raw collections: the schemas no longer know the `messages` array.
  const conversations = models.conversations.collection as unknown as mongo.Collection<LegacyConversation>;
  const messages = models.conversationMessages.collection;
  let moved = 0;
  for await (const doc of conversations.find({ messages: { $exists: true } })) {
    const { chatbotId, conversationId } = doc;
    if (doc.messages.length > 0) {
      try {
        await messages.insertMany(
          doc.messages.map(({ role, content, createdAt }, seq) => ({ chatbotId, conversationId, seq, role, content, createdAt })),
          { ordered: false },
        );
      } catch (error) {
        // Moved by an earlier, interrupted run: those messages are there already.
        const writeErrors = (error as { writeErrors?: { code: number }[] }).writeErrors ?? [];
        if (writeErrors.length === 0 || writeErrors.some((failure) => failure.code !== DUPLICATE_KEY)) throw error;
      }
    }
    const { modifiedCount } = await conversations.updateOne(
      { _id: doc._id, chatbotId, messages: { $size: doc.messages.length } },
      { $set: { messageCount: doc.messages.length }, $unset: { messages: '' } },
    );
    moved += modifiedCount;
  }
  return moved;
}
