import { pageOffset } from '../paging.js';
import type { Lead, LeadRepository, Page, TimeRange } from '../port.js';
import type { LeadDoc, MongoModels } from './models.js';
import { createdWithin } from './time-range.js';
import { translateUnique } from './unique.js';
import { retryOnceOnDuplicateKey } from './upsert.js';

export const toLead = (doc: LeadDoc): Lead => ({
  id: doc._id,
  chatbotId: doc.chatbotId,
  accountId: doc.accountId,
  name: doc.name,
  email: doc.email,
  phone: doc.phone,
  conversationId: doc.conversationId,
  createdAt: doc.createdAt,
});

/**
 * A page of a chatbot's leads: equality and range on {chatbotId, createdAt}, sorted in the order
 * of the {chatbotId: 1, createdAt: -1, _id: -1} index. Exported for the test that explains it.
 */
export function leadPageQuery(models: MongoModels, chatbotId: string, range: TimeRange, page: Page) {
  return models.leads
    .find({ chatbotId, ...createdWithin(range) })
    .sort({ createdAt: -1, _id: -1 })
    .skip(pageOffset(page))
    .limit(page.size);
}

export function mongoLeads(models: MongoModels): LeadRepository {
  const { leads } = models;

  return {
    async insert(lead) {
      const { id, ...fields } = lead;
      await translateUnique('leads', () => leads.create({ _id: id, ...fields }));
    },
    // One write: the unique {chatbotId, conversationId} index decides between insert and update.
    // Given fields are $set; the rest are only written on insert, so later calls keep them.
    async upsertForConversation(lead) {
      const { id, chatbotId, conversationId, accountId, createdAt } = lead;
      const given = { name: lead.name, email: lead.email, phone: lead.phone };
      const set = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== null));
      const missing = Object.fromEntries(Object.entries(given).filter(([, value]) => value === null));
      const doc = await retryOnceOnDuplicateKey(() =>
        leads
          .findOneAndUpdate(
            { chatbotId, conversationId },
            {
              $setOnInsert: { _id: id, accountId, createdAt, ...missing },
              ...(Object.keys(set).length > 0 && { $set: set }),
            },
            { upsert: true, returnDocument: 'after' },
          )
          .lean<LeadDoc>(),
      );
      if (!doc) throw new Error('upsert returned no document');
      return toLead(doc);
    },
    async list(chatbotId, range, page) {
      return (await leadPageQuery(models, chatbotId, range, page).lean<LeadDoc[]>()).map(toLead);
    },
  };
}
