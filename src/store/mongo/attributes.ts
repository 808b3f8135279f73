import { givenFields } from '../given-fields.js';
import type { AttributeRepository, CustomAttribute } from '../port.js';
import type { AttributeDoc, MongoModels } from './models.js';
import { translateUnique } from './unique.js';

const toAttribute = (doc: AttributeDoc): CustomAttribute => ({
  chatbotId: doc.chatbotId,
  name: doc.name,
  label: doc.label,
  type: doc.type,
  description: doc.description,
  archived: doc.archived,
  createdAt: doc.createdAt,
});

export function mongoAttributes(models: MongoModels): AttributeRepository {
  const { attributes } = models;

  return {
    async create(attribute) {
      await translateUnique('customAttributes', () => attributes.create(attribute));
    },
    async list(chatbotId) {
      const docs = await attributes.find({ chatbotId }).sort({ createdAt: 1, name: 1 }).lean<AttributeDoc[]>();
      return docs.map(toAttribute);
    },
    async update(chatbotId, name, change) {
      const fields = givenFields(change);
      // An empty $set is an error to MongoDB; nothing to change is a plain read.
      const doc =
        Object.keys(fields).length === 0
          ? await attributes.findOne({ chatbotId, name }).lean<AttributeDoc>()
          : await attributes
              .findOneAndUpdate({ chatbotId, name }, { $set: fields }, { returnDocument: 'after' })
              .lean<AttributeDoc>();
      return doc ? toAttribute(doc) : undefined;
    },
  };
}
