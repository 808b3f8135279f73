import { pageOffset } from '../paging.js';
import type { Digest, DigestRepository } from '../port.js';
import { channelListing } from './channel-listing.js';
import type { DigestDoc, MongoModels } from './models.js';
import { retryOnceOnDuplicateKey } from './upsert.js';

const toDigest = (doc: DigestDoc): Digest => ({
  id: doc._id,
  accountId: doc.accountId,
  chatbotId: doc.chatbotId,
  platform: doc.platform,
  workspaceId: doc.workspaceId,
  channelId: doc.channelId,
  time: doc.time,
  timezone: doc.timezone,
  postWhenEmpty: doc.postWhenEmpty,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

export function mongoDigests(models: MongoModels): DigestRepository {
  const { digests, digestRuns } = models;

  return {
    // One write: the filter is exactly the unique index, which decides between insert and update.
    async upsert(digest) {
      const { id, accountId, chatbotId, platform, workspaceId, channelId, createdAt } = digest;
      const { time, timezone, postWhenEmpty, updatedAt } = digest;
      const doc = await retryOnceOnDuplicateKey(() =>
        digests
          .findOneAndUpdate(
            { chatbotId, accountId, platform, workspaceId, channelId },
            { $set: { time, timezone, postWhenEmpty, updatedAt }, $setOnInsert: { _id: id, createdAt } },
            { upsert: true, returnDocument: 'after' },
          )
          .lean<DigestDoc>(),
      );
      if (!doc) throw new Error('upsert returned no document');
      return toDigest(doc);
    },
    async list(accountId, filter, page) {
      const docs = await digests
        .find(channelListing(accountId, filter))
        .sort({ createdAt: 1, _id: 1 })
        .skip(pageOffset(page))
        .limit(page.size)
        .lean<DigestDoc[]>();
      return docs.map(toDigest);
    },
    async delete(accountId, id) {
      const doc = await digests.findOneAndDelete({ _id: id, accountId }).lean<DigestDoc>();
      if (!doc) return undefined;
      // SQLite cascades from the digest; here its run records go explicitly.
      await digestRuns.deleteMany({ digestId: id });
      return toDigest(doc);
    },
    async listAll() {
      const docs = await digests.find().sort({ createdAt: 1, _id: 1 }).lean<DigestDoc[]>();
      return docs.map(toDigest);
    },
  };
}
