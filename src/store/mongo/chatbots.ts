import { completeSettings } from '../../settings/chatbot-settings.js';
import { patchEntries } from '../../settings/patch.js';
import type { Chatbot, ChatbotRepository } from '../port.js';
import type { AtomicWrites } from './atomic.js';
import type { ChatbotDoc, MongoModels } from './models.js';

const toChatbot = (doc: ChatbotDoc): Chatbot => ({
  id: doc._id,
  accountId: doc.accountId,
  name: doc.name,
  status: doc.status,
  settings: completeSettings(doc.settings),
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

const find = (doc: ChatbotDoc | null) => (doc ? toChatbot(doc) : undefined);

/** What a list shows of each chatbot (ChatbotSummary). */
const LISTED = {
  name: 1,
  status: 1,
  'settings.model': 1,
  'settings.instructions': 1,
  'settings.visibility': 1,
  createdAt: 1,
  updatedAt: 1,
};

export function mongoChatbots(models: MongoModels, { atomic, compensated }: AtomicWrites): ChatbotRepository {
  const {
    accounts,
    chatbots,
    trainingSources,
    trainingChunks,
    sources,
    sourceFileParts,
    sourceTextParts,
    sourcePages,
    sourceRevisions,
    retrievalIndexParts,
    retrievalVectors,
    assets,
    contacts,
    attributes,
    leads,
    pageBlocks,
    conversations,
    conversationMessages,
    handoffNotices,
    bindings,
    digests,
    digestRuns,
    webhooks,
    webhookDeliveries,
    webhookAttempts,
    activityHours,
    unansweredGroups,
  } = models;

  return {
    // A counter on the account is reserved in one conditional write, so concurrent inserts cannot
    // both take the last slot.
    insertWithinLimit(chatbot, limit) {
      const { id, ...fields } = chatbot;
      return atomic(async () => {
        const reserved = await accounts.updateOne(
          { _id: chatbot.accountId, chatbotCount: { $lt: limit } },
          { $inc: { chatbotCount: 1 } },
        );
        if (reserved.matchedCount === 0) return false;
        await compensated(
          () => chatbots.create({ _id: id, ...fields }),
          () => accounts.updateOne({ _id: chatbot.accountId }, { $inc: { chatbotCount: -1 } }),
        );
        return true;
      });
    },
    async find(accountId, id) {
      return find(await chatbots.findOne({ _id: id, accountId }).lean<ChatbotDoc>());
    },
    async findPublic(id) {
      return find(await chatbots.findOne({ _id: id }).lean<ChatbotDoc>());
    },
    async list(accountId) {
      const docs = await chatbots
        .find({ accountId }, LISTED)
        .sort({ createdAt: 1, _id: 1 })
        .lean<ChatbotDoc[]>();
      return docs.map(({ _id, name, status, settings, createdAt, updatedAt }) => ({
        id: _id,
        name,
        status,
        settings: { model: settings.model, instructions: settings.instructions, visibility: settings.visibility },
        createdAt,
        updatedAt,
      }));
    },
    // One write setting only the changed leaves: concurrent updates of different fields both land.
    async update(accountId, id, change) {
      const fields: Record<string, unknown> = Object.fromEntries(
        patchEntries(change.settings ?? {}, ['settings']).map(({ path, value }) => [
          path.join('.'),
          value,
        ]),
      );
      if (change.name !== undefined) fields.name = change.name;
      if (change.status !== undefined) fields.status = change.status;
      fields.updatedAt = change.updatedAt;
      return find(
        await chatbots
          .findOneAndUpdate({ _id: id, accountId }, { $set: fields }, { returnDocument: 'after' })
          .lean<ChatbotDoc>(),
      );
    },
    async delete(accountId, id) {
      // The chatbot, its counter and its source (which names the current chunk set, so readers stop
      // finding chunks at once) together; the children after, outside any transaction, since they
      // may be many. A cascade cut short is finished by the repair.
      const deleted = await atomic(async () => {
        const { deletedCount } = await chatbots.deleteOne({ _id: id, accountId });
        if (deletedCount === 0) return false;
        await accounts.updateOne({ _id: accountId }, { $inc: { chatbotCount: -1 } });
        await trainingSources.deleteOne({ _id: id });
        return true;
      });
      if (!deleted) return false;
      const digestIds = (await digests.find({ chatbotId: id }, { _id: 1 }).lean<{ _id: string }[]>()).map((d) => d._id);
      const sourceIds = (await sources.find({ chatbotId: id }, { _id: 1 }).lean<{ _id: string }[]>()).map((s) => s._id);
      await Promise.all([
        digestRuns.deleteMany({ digestId: { $in: digestIds } }),
        sourcePages.deleteMany({ sourceId: { $in: sourceIds } }),
        sourceFileParts.deleteMany({ sourceId: { $in: sourceIds } }),
        sourceTextParts.deleteMany({ chatbotId: id }),
        sources.deleteMany({ chatbotId: id }),
        sourceRevisions.deleteOne({ _id: id }),
        trainingChunks.deleteMany({ chatbotId: id }),
        retrievalIndexParts.deleteMany({ chatbotId: id }),
        retrievalVectors.deleteMany({ chatbotId: id }),
        assets.deleteMany({ chatbotId: id }),
        contacts.deleteMany({ chatbotId: id }),
        attributes.deleteMany({ chatbotId: id }),
        leads.deleteMany({ chatbotId: id }),
        pageBlocks.deleteMany({ chatbotId: id }),
        conversations.deleteMany({ chatbotId: id }),
        conversationMessages.deleteMany({ chatbotId: id }),
        handoffNotices.deleteMany({ chatbotId: id }),
        bindings.deleteMany({ chatbotId: id }),
        digests.deleteMany({ chatbotId: id }),
        webhooks.deleteMany({ chatbotId: id }),
        webhookDeliveries.deleteMany({ chatbotId: id }),
        webhookAttempts.deleteMany({ chatbotId: id }),
        activityHours.deleteMany({ chatbotId: id }),
        unansweredGroups.deleteMany({ chatbotId: id }),
      ]);
      return true;
    },
  };
}
