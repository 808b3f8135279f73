import { givenFields } from '../given-fields.js';
import { pageOffset } from '../paging.js';
import type { Contact, ContactChange, ContactRepository } from '../port.js';
import type { AtomicWrites } from './atomic.js';
import type { ContactDoc, MongoModels } from './models.js';
import { BLOCK_ROWS, comparedWith, pageBlocks } from './page-blocks.js';
import { translateUnique } from './unique.js';

const toContact = (doc: ContactDoc): Contact => ({
  id: doc._id,
  chatbotId: doc.chatbotId,
  externalId: doc.externalId,
  name: doc.name,
  email: doc.email,
  phonenumber: doc.phonenumber,
  paymentAccounts: doc.paymentAccounts.map(({ label, payment_id, payment_email }) => ({
    label,
    payment_id,
    payment_email,
  })),
  customAttributes: doc.customAttributes,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

const find = (doc: ContactDoc | null) => (doc ? toContact(doc) : undefined);

/**
 * The leaves a change sets and unsets: given fields whole, custom attributes one dotted path per
 * key, a key set to null unset.
 */
function changedLeaves(change: ContactChange): { $set: Record<string, unknown>; $unset: Record<string, ''> } {
  const { customAttributes = {}, ...fields } = change;
  const attributes = Object.entries(customAttributes).map(([key, value]) => [`customAttributes.${key}`, value] as const);
  return {
    $set: { ...givenFields(fields), ...Object.fromEntries(attributes.filter(([, value]) => value !== null)) },
    $unset: Object.fromEntries(attributes.filter(([, value]) => value === null).map(([path]) => [path, ''])),
  };
}

export function mongoContacts(
  models: MongoModels,
  { atomic, compensated, repairable }: AtomicWrites,
  blockRows = BLOCK_ROWS,
): ContactRepository {
  const { contacts } = models;
  const blocks = pageBlocks(models, 'contacts', blockRows);

  return {
    // All or nothing: one transaction, or else undoing what the batch wrote (its ids are fresh, so
    // nothing else is touched). Written contacts are then counted.
    async insertMany(batch) {
      const docs = batch.map(({ id, ...fields }): ContactDoc => ({ _id: id, ...fields }));
      const chatbotIds = [...new Set(docs.map((doc) => doc.chatbotId))];
      await atomic(async () => {
        await compensated(
          () => translateUnique('contacts', () => contacts.insertMany(docs, { ordered: true, lean: true })),
          () => contacts.deleteMany({ chatbotId: { $in: chatbotIds }, _id: { $in: docs.map((doc) => doc._id) } }),
        );
        for (const chatbotId of chatbotIds) {
          // A contact is its own row key: (createdAt, id).
          await repairable(() => blocks.added(chatbotId, batch.filter((contact) => contact.chatbotId === chatbotId)));
        }
      });
    },
    async find(chatbotId, externalId) {
      return find(await contacts.findOne({ chatbotId, externalId }).lean<ContactDoc>());
    },
    async list(chatbotId, page) {
      const start = await blocks.oldestFirst(chatbotId, pageOffset(page));
      const docs = await contacts
        .find({ chatbotId, ...(start.edge && comparedWith(start.edge, '$gte')) })
        .sort({ createdAt: 1, _id: 1 })
        .skip(start.skip)
        .limit(page.size)
        .lean<ContactDoc[]>();
      return docs.map(toContact);
    },
    count: (chatbotId) => blocks.total(chatbotId),
    // One atomic write of only the changed leaves: concurrent updates (and removals) of different
    // custom attributes all land, and a unique-index clash leaves the contact untouched.
    async update(chatbotId, externalId, change) {
      return find(
        await translateUnique('contacts', () =>
          contacts
            .findOneAndUpdate({ chatbotId, externalId }, changedLeaves(change), { returnDocument: 'after' })
            .lean<ContactDoc>(),
        ),
      );
    },
    async delete(chatbotId, externalId) {
      return atomic(async () => {
        const doc = await contacts.findOneAndDelete({ chatbotId, externalId }).lean<ContactDoc>();
        if (doc) await repairable(() => blocks.removed(chatbotId, { createdAt: doc.createdAt, id: doc._id }));
        return find(doc);
      });
    },
  };
}
