import type { mongo } from 'mongoose';
import type { MongoModels } from './models.js';

// Data migration at start-up: hubs before the material recorded its runs (material-runs.ts) kept
// each source's chunks a second time, in sourceChunks, their complete set named by the source's
// chunkedRevision. Both go: the material holds the chunks. Material trained before has no runs, so
// a chatbot's first training after the upgrade chunks its sources again. Re-running it (or running
// it on several instances at once) finds nothing left to do.

const LEGACY = 'sourceChunks';

export async function dropSourceChunks(models: MongoModels): Promise<void> {
  // The raw collection: the schema no longer knows the field.
  const sources = models.sources.collection as unknown as mongo.Collection;
  await sources.updateMany({ chunkedRevision: { $exists: true } }, { $unset: { chunkedRevision: '' } });
  const { db } = models.sources.collection.conn;
  if (!db) return;
  const exists = async () => (await db.listCollections({}, { nameOnly: true }).toArray()).some(({ name }) => name === LEGACY);
  if (!(await exists())) return;
  try {
    await db.dropCollection(LEGACY);
  } catch (error) {
    // Another instance dropped it first.
    if (await exists()) throw error;
  }
}
