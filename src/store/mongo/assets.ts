import type { mongo } from 'mongoose';
import type { AssetRepository } from '../port.js';
import { toBuffer } from './binary.js';
import type { AssetDoc, MongoModels } from './models.js';

export function mongoAssets(models: MongoModels): AssetRepository {
  const { assets } = models;

  return {
    async put(asset) {
      const { chatbotId, kind, contentType, data, etag, updatedAt } = asset;
      // The filter is exactly the unique index, so the server retries an upsert that loses a race.
      await assets.updateOne(
        { chatbotId, kind },
        { $set: { contentType, data, etag, updatedAt } },
        { upsert: true },
      );
    },
    async get(chatbotId, kind) {
      const doc = await assets
        .findOne({ chatbotId, kind })
        .lean<Omit<AssetDoc, 'data'> & { data: mongo.Binary }>();
      return doc
        ? {
            chatbotId: doc.chatbotId,
            kind: doc.kind,
            contentType: doc.contentType,
            data: toBuffer(doc.data),
            etag: doc.etag,
            updatedAt: doc.updatedAt,
          }
        : undefined;
    },
    async etag(chatbotId, kind) {
      const doc = await assets.findOne({ chatbotId, kind }, { etag: 1, _id: 0 }).lean<{ etag: string }>();
      return doc?.etag;
    },
    async delete(chatbotId, kind) {
      const { deletedCount } = await assets.deleteOne({ chatbotId, kind });
      return deletedCount > 0;
    },
  };
}
