import type { mongo } from 'mongoose';
import type { RetrievalRepository } from '../port.js';
import { bytesToVector, vectorToBytes } from '../vector-bytes.js';
import { toBuffer } from './binary.js';
import type { MongoModels, RetrievalIndexPartDoc, RetrievalVectorDoc } from './models.js';

type Lean<T, K extends keyof T> = Omit<T, K> & { [key in K]: mongo.Binary };

// Under MongoDB's 16 MB document limit, with room for the other fields.
const PART_BYTES = 8 * 1024 * 1024;

export function mongoRetrieval(models: MongoModels): RetrievalRepository {
  const { retrievalIndexParts, retrievalVectors } = models;
  return {
    async index(chatbotId, version) {
      const docs = await retrievalIndexParts
        .find({ chatbotId, version }, { _id: 0, part: 1, parts: 1, data: 1 })
        .sort({ part: 1 })
        .lean<Lean<RetrievalIndexPartDoc, 'data'>[]>();
      // Parts still being written (or already being replaced) are not an index yet.
      if (docs.length === 0 || docs.length !== docs[0]?.parts) return undefined;
      return new Uint8Array(Buffer.concat(docs.map((doc) => toBuffer(doc.data))));
    },
    async saveIndex(chatbotId, version, data) {
      const parts = Math.max(1, Math.ceil(data.byteLength / PART_BYTES));
      const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      await retrievalIndexParts.deleteMany({ chatbotId, version });
      for (let part = 0; part < parts; part += 1) {
        const slice = bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES);
        await retrievalIndexParts.insertMany([{ chatbotId, version, part, parts, data: slice }], { lean: true });
      }
      await retrievalIndexParts.deleteMany({ chatbotId, version: { $ne: version } });
    },
    async vectors(chatbotId, model) {
      const docs = await retrievalVectors
        .find({ chatbotId, model }, { _id: 0, hash: 1, vector: 1 })
        .sort({ hash: 1 })
        .lean<Lean<RetrievalVectorDoc, 'vector'>[]>();
      return docs.map((doc) => ({ hash: doc.hash, vector: bytesToVector(toBuffer(doc.vector)) }));
    },
    async saveVectors(chatbotId, model, stored) {
      if (stored.length === 0) return;
      await retrievalVectors.bulkWrite(
        stored.map(({ hash, vector }) => ({
          updateOne: {
            filter: { chatbotId, model, hash },
            update: { $set: { vector: vectorToBytes(vector) } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
    },
    async pruneVectors(chatbotId, keep) {
      await retrievalVectors.deleteMany({ chatbotId, hash: { $nin: keep } });
    },
  };
}
