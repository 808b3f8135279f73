import { apiTextSource, type SourceRef } from '../port.js';
import type { MongoModels, TrainingSourceDoc } from './models.js';
import { mongoSourceTexts } from './source-texts.js';
import { toDoc } from './sources.js';

// Data migration at start-up: hubs before knowledge sources kept a chatbot's v1 `sourceText` in
// its training document. Each becomes the chatbot's `API text` source (its id derived from the
// chatbot's, so re-running never makes a second one), its current chunks are tagged with it, and
// only then is the text removed from the training document. Safe on several instances at once.

const DUPLICATE_KEY = 11000;

export async function moveSourceTexts(models: MongoModels): Promise<number> {
  let moved = 0;
  const texts = mongoSourceTexts(models);
  const legacy = models.trainingSources.find({ sourceText: { $exists: true } }).lean<TrainingSourceDoc[]>().cursor();
  for await (const doc of legacy) {
    const chatbotId = doc._id;
    const text = doc.sourceText ?? '';
    const chatbot = await models.chatbots.findById(chatbotId, { createdAt: 1, updatedAt: 1 }).lean<{ createdAt: Date; updatedAt: Date }>();
    if (chatbot && text.length > 0) {
      const source = apiTextSource(chatbotId, text, chatbot.createdAt, chatbot.updatedAt);
      const textVersion = await texts.write(chatbotId, source.id, text);
      try {
        await models.sources.create(toDoc(source, textVersion));
      } catch (error) {
        await texts.remove(source.id, textVersion);
        if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
      }
      const ref: SourceRef = { id: source.id, title: source.title, type: 'text' };
      await models.trainingChunks.updateMany({ chatbotId, version: doc.version, source: { $exists: false } }, { $set: { source: ref } });
    }
    await models.trainingSources.updateOne({ _id: chatbotId, version: doc.version }, { $unset: { sourceText: '' } });
    moved += 1;
  }
  return moved;
}
