import type { mongo } from 'mongoose';
import type { AssetRepository } from '../port.js';
import type { AssetDoc, MongoModels } from './models.js';

// lean() hands binary fields back as BSON Binary; a view over its bytes avoids a copy.
const toBuffer = (binary: mongo.Binary) => {
  const bytes = binary.value();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

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
    async delete(chatbotId, kind) {
      const { deletedCount } = await assets.deleteOne({ chatbotId, kind });
      return deletedCount > 0;
    },
  };
}
