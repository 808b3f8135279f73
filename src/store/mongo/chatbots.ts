import { patchEntries } from '../../domain/settings.js';
import type { Chatbot, ChatbotRepository } from '../port.js';
import type { ChatbotDoc, MongoModels } from './models.js';

const toChatbot = (doc: ChatbotDoc): Chatbot => ({
  id: doc._id,
  accountId: doc.accountId,
  name: doc.name,
  status: doc.status,
  settings: doc.settings,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

const find = (doc: ChatbotDoc | null) => (doc ? toChatbot(doc) : undefined);

export function mongoChatbots(models: MongoModels): ChatbotRepository {
  const {
    accounts,
    chatbots,
    trainingSources,
    trainingChunks,
    retrievalIndexParts,
    retrievalVectors,
    assets,
    contacts,
    attributes,
    leads,
    conversations,
    bindings,
    digests,
    digestRuns,
  } = models;

  return {
    // No multi-document transactions on a standalone mongod: a counter on the account is reserved
    // in one conditional write, so concurrent inserts cannot both take the last slot.
    async insertWithinLimit(chatbot, limit) {
      const reserved = await accounts.updateOne(
        { _id: chatbot.accountId, chatbotCount: { $lt: limit } },
        { $inc: { chatbotCount: 1 } },
      );
      if (reserved.matchedCount === 0) return false;
      const { id, ...fields } = chatbot;
      try {
        await chatbots.create({ _id: id, ...fields });
      } catch (error) {
        await accounts.updateOne({ _id: chatbot.accountId }, { $inc: { chatbotCount: -1 } });
        throw error;
      }
      return true;
    },
    async find(accountId, id) {
      return find(await chatbots.findOne({ _id: id, accountId }).lean<ChatbotDoc>());
    },
    async list(accountId) {
      const docs = await chatbots
        .find({ accountId })
        .sort({ createdAt: 1, _id: 1 })
        .lean<ChatbotDoc[]>();
      return docs.map(toChatbot);
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
      const { deletedCount } = await chatbots.deleteOne({ _id: id, accountId });
      if (deletedCount === 0) return false;
      await accounts.updateOne({ _id: accountId }, { $inc: { chatbotCount: -1 } });
      // The source first: it names the current chunk set, so readers stop finding chunks at once.
      await trainingSources.deleteOne({ _id: id });
      const digestIds = (await digests.find({ chatbotId: id }, { _id: 1 }).lean<{ _id: string }[]>()).map((d) => d._id);
      await Promise.all([
        digestRuns.deleteMany({ digestId: { $in: digestIds } }),
        trainingChunks.deleteMany({ chatbotId: id }),
        retrievalIndexParts.deleteMany({ chatbotId: id }),
        retrievalVectors.deleteMany({ chatbotId: id }),
        assets.deleteMany({ chatbotId: id }),
        contacts.deleteMany({ chatbotId: id }),
        attributes.deleteMany({ chatbotId: id }),
        leads.deleteMany({ chatbotId: id }),
        conversations.deleteMany({ chatbotId: id }),
        bindings.deleteMany({ chatbotId: id }),
        digests.deleteMany({ chatbotId: id }),
      ]);
      return true;
    },
  };
}
