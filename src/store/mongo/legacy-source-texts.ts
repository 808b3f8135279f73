import type { mongo } from 'mongoose';
import type { MongoModels } from './models.js';
import type { MongoSourceTexts } from './source-texts.js';

// Data migration at start-up: hubs before source text parts kept a source's extracted text in a
// `text` field of its document (which fails past MongoDB's 16 MiB). Each such text is written in
// parts under a fresh version, which the source's document then names in the same write that
// removes the field, only if the field is still there. Re-running it (after a crash midway, or on
// several instances at once) finishes the job; parts a crash left are removed by the repair, as
// any text never made current is.

type LegacySource = { _id: string; chatbotId: string; text: string; textVersion?: string | null };

export async function partSourceTexts(models: MongoModels, texts: MongoSourceTexts): Promise<number> {
  // The raw collection: the schema no longer knows the `text` field.
  const sources = models.sources.collection as unknown as mongo.Collection<LegacySource>;
  let moved = 0;
  for await (const { _id: id, chatbotId, text } of sources.find({ text: { $exists: true } }, { projection: { chatbotId: 1, text: 1 } })) {
    const textVersion = await texts.write(chatbotId, id, text);
    const { modifiedCount } = await sources.updateOne({ _id: id, text: { $exists: true } }, { $set: { textVersion }, $unset: { text: '' } });
    if (modifiedCount === 0) await texts.remove(id, textVersion);
    moved += modifiedCount;
  }
  return moved;
}
