import { pageOffset } from '../paging.js';
import type { Lead, LeadRepository, TimeRange } from '../port.js';
import type { ActivityCount } from './activity.js';
import type { AtomicWrites } from './atomic.js';
import { mongoErasure } from './erasure.js';
import { toLead } from './lead-docs.js';
import type { LeadDoc, MongoModels } from './models.js';
import { BLOCK_ROWS, comparedWith, pageBlocks, type PageStart } from './page-blocks.js';
import { createdWithin } from './time-range.js';
import { isDuplicateKey, translateUnique } from './unique.js';

const LEAD_FIELDS = ['name', 'email', 'phone'] as const;

/** Matches a lead at `revision`; a lead stored before leads had revisions is at 1. */
export const atRevision = (revision: number) => (revision === 1 ? { $in: [1, null] } : revision);

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
  writes: AtomicWrites,
  count: ActivityCount,
  blockRows = BLOCK_ROWS,
): LeadRepository {
  const { atomic, repairable } = writes;
  const erasure = mongoErasure(models, writes);
  const { leads } = models;
  const blocks = pageBlocks(models, 'leads', blockRows);
  // A lead is its own row key: (createdAt, id).
  const counted = async (lead: Lead) => {
    await count(lead.chatbotId, lead.createdAt, { leads: 1 });
    await repairable(() => blocks.added(lead.chatbotId, [lead]));
  };

  const insertCounted = async (lead: Lead) => {
    const { id, ...fields } = lead;
    await atomic(async () => {
      await leads.create({ _id: id, ...fields });
      await counted(lead);
    });
  };

  /** The conversation's lead corrected with the fields `lead` gives (as upsertForConversation), or undefined when it has none. */
  async function correctStored(lead: Lead & { conversationId: string }): Promise<Lead | undefined> {
    const { chatbotId, conversationId } = lead;
    for (;;) {
      const stored = await leads.findOne({ chatbotId, conversationId }).lean<LeadDoc>();
      if (!stored) return undefined;
      // A correction changes a stored field; an unchanged re-submission writes nothing.
      const changed = LEAD_FIELDS.filter((field) => lead[field] !== null && lead[field] !== stored[field]);
      if (changed.length === 0) return toLead(stored);
      const revision = stored.revision ?? 1;
      const changes = Object.fromEntries(changed.map((field) => [field, lead[field]]));
      // Written only if the lead is still the revision read; a call that lost the race reads again.
      const corrected = await leads
        .findOneAndUpdate(
          { _id: stored._id, revision: atRevision(revision) },
          { $set: { ...changes, revision: revision + 1, webhookPending: true } },
          { returnDocument: 'after' },
        )
        .lean<LeadDoc>();
      if (corrected) return toLead(corrected);
    }
  }

  return {
    async insert(lead) {
      await translateUnique('leads', () => insertCounted(lead));
    },
    upsertForConversation: async function upsert(lead): Promise<Lead> {
      const corrected = await correctStored(lead);
      if (corrected) return corrected;
      try {
        await insertCounted(lead);
        return lead;
      } catch (error) {
        // Another call created the conversation's lead first (the unique index): correct that one.
        if (isDuplicateKey(error)) return upsert(lead);
        throw error;
      }
    },
    correctForConversation: correctStored,
    async list(chatbotId, range, page) {
      const start = await blocks.newestFirst(chatbotId, range, pageOffset(page));
      return (await leadPageQuery(models, chatbotId, range, start, page.size).lean<LeadDoc[]>()).map(toLead);
    },
    async findForConversation(chatbotId, conversationId) {
      const doc = await leads.findOne({ chatbotId, conversationId }).lean<LeadDoc>();
      return doc ? toLead(doc) : undefined;
    },
    async findForConversations(chatbotId, conversationIds) {
      return (await leads.find({ chatbotId, conversationId: { $in: [...conversationIds] } }).lean<LeadDoc[]>()).map(toLead);
    },
    async find(chatbotId, id) {
      const doc = await leads.findOne({ _id: id, chatbotId }).lean<LeadDoc>();
      return doc ? toLead(doc) : undefined;
    },
    delete: (chatbotId, id) => erasure.lead(chatbotId, id),
  };
}
