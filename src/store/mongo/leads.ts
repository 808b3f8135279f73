import { pageOffset } from '../paging.js';
import type { Lead, LeadRepository, TimeRange } from '../port.js';
import type { ActivityCount } from './activity.js';
import type { AtomicWrites } from './atomic.js';
import type { LeadDoc, MongoModels } from './models.js';
import { BLOCK_ROWS, comparedWith, pageBlocks, type PageStart } from './page-blocks.js';
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
 * of the {chatbotId: 1, createdAt: -1, _id: -1} index, from where its page block says it starts.
 * Exported for the test that explains it.
 */
export function leadPageQuery(
  models: MongoModels,
  chatbotId: string,
  range: TimeRange,
  start: PageStart,
  size: number,
) {
  return models.leads
    .find({ chatbotId, ...createdWithin(range), ...(start.edge && comparedWith(start.edge, '$lt')) })
    .sort({ createdAt: -1, _id: -1 })
    .skip(start.skip)
    .limit(size);
}

export function mongoLeads(
  models: MongoModels,
  { atomic, repairable }: AtomicWrites,
  count: ActivityCount,
  blockRows = BLOCK_ROWS,
): LeadRepository {
  const { leads } = models;
  const blocks = pageBlocks(models, 'leads', blockRows);
  // A lead is its own row key: (createdAt, id).
  const counted = async (lead: Lead) => {
    await count(lead.chatbotId, lead.createdAt, { leads: 1 });
    await repairable(() => blocks.added(lead.chatbotId, [lead]));
  };

  return {
    async insert(lead) {
      const { id, ...fields } = lead;
      await atomic(async () => {
        await translateUnique('leads', () => leads.create({ _id: id, ...fields }));
        await counted(lead);
      });
    },
    // One write: the unique {chatbotId, conversationId} index decides between insert and update.
    // Given fields are $set; the rest are only written on insert, so later calls keep them.
    async upsertForConversation(lead) {
      const { id, chatbotId, conversationId, accountId, createdAt } = lead;
      const given = { name: lead.name, email: lead.email, phone: lead.phone };
      const set = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== null));
      const missing = Object.fromEntries(Object.entries(given).filter(([, value]) => value === null));
      // The retry wraps the transaction: a duplicate key aborts the one it happens in.
      const doc = await retryOnceOnDuplicateKey(() =>
        atomic(async () => {
          const upserted = await leads
            .findOneAndUpdate(
              { chatbotId, conversationId },
              {
                $setOnInsert: { _id: id, accountId, createdAt, ...missing },
                ...(Object.keys(set).length > 0 && { $set: set }),
              },
              { upsert: true, returnDocument: 'after' },
            )
            .lean<LeadDoc>();
          // Our fresh id on the document: this call inserted it.
          if (upserted?._id === id) await counted(lead);
          return upserted;
        }),
      );
      if (!doc) throw new Error('upsert returned no document');
      return toLead(doc);
    },
    async list(chatbotId, range, page) {
      const start = await blocks.newestFirst(chatbotId, range, pageOffset(page));
      return (await leadPageQuery(models, chatbotId, range, start, page.size).lean<LeadDoc[]>()).map(toLead);
    },
    async findForConversation(chatbotId, conversationId) {
      const doc = await leads.findOne({ chatbotId, conversationId }).lean<LeadDoc>();
      return doc ? toLead(doc) : undefined;
    },
  };
}
