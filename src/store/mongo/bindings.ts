import { pageOffset } from '../paging.js';
import { WORKSPACE_DEFAULT, type Binding, type BindingRepository } from '../port.js';
import type { BindingDoc, MongoModels } from './models.js';
import { channelListing } from './channel-listing.js';
import { retryOnceOnDuplicateKey } from './upsert.js';

const toBinding = (doc: BindingDoc): Binding => ({
  id: doc._id,
  accountId: doc.accountId,
  platform: doc.platform,
  workspaceId: doc.workspaceId,
  channelId: doc.channelId,
  chatbotId: doc.chatbotId,
  mode: doc.mode,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

export function mongoBindings(models: MongoModels): BindingRepository {
  const { bindings } = models;

  return {
    // One write: the filter is exactly the unique index, which decides between insert and update.
    async upsert(binding) {
      const { id, accountId, platform, workspaceId, channelId, chatbotId, mode, createdAt, updatedAt } = binding;
      const doc = await retryOnceOnDuplicateKey(() =>
        bindings
          .findOneAndUpdate(
            { accountId, platform, workspaceId, channelId },
            { $set: { chatbotId, mode, updatedAt }, $setOnInsert: { _id: id, createdAt } },
            { upsert: true, returnDocument: 'after' },
          )
          .lean<BindingDoc>(),
      );
      if (!doc) throw new Error('upsert returned no document');
      return toBinding(doc);
    },
    async list(accountId, filter, page) {
      const docs = await bindings
        .find(channelListing(accountId, filter))
        .sort({ createdAt: 1, _id: 1 })
        .skip(pageOffset(page))
        .limit(page.size)
        .lean<BindingDoc[]>();
      return docs.map(toBinding);
    },
    // At most two documents match: the channel's own and the workspace default.
    async resolve(accountId, { platform, workspaceId, channelId }) {
      const docs = await bindings
        .find({ accountId, platform, workspaceId, channelId: { $in: [channelId, WORKSPACE_DEFAULT] } })
        .lean<BindingDoc[]>();
      const doc = docs.find((one) => one.channelId === channelId) ?? docs[0];
      return doc ? toBinding(doc) : undefined;
    },
    async delete(accountId, id) {
      const doc = await bindings.findOneAndDelete({ _id: id, accountId }).lean<BindingDoc>();
      return doc ? toBinding(doc) : undefined;
    },
  };
}
