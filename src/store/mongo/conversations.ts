import { nanoid } from 'nanoid';
import { pageOffset } from '../paging.js';
import type { Conversation, ConversationRepository, ConversationSource, Page, TimeRange } from '../port.js';
import type { ConversationDoc, MongoModels } from './models.js';
import { createdWithin } from './time-range.js';
import { retryOnceOnDuplicateKey } from './upsert.js';

const documentId = (chatbotId: string, id: string) => `${chatbotId}:${id}`;

const toConversation = (doc: ConversationDoc): Conversation => ({
  id: doc.conversationId,
  chatbotId: doc.chatbotId,
  accountId: doc.accountId,
  source: doc.source,
  contactId: doc.contactId,
  // Messages saved before ids existed get their place, which appends never change.
  messages: doc.messages.map(({ id, role, content, createdAt }, index) => ({
    id: id ?? `legacy-${index}`,
    role,
    content,
    createdAt,
  })),
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

/**
 * A page of a chatbot's conversations: equality and range on {chatbotId, createdAt}, sorted in the
 * order of the {chatbotId: 1, createdAt: -1, _id: -1} index (the source filter is checked on the
 * documents the range yields). Exported for the test that explains it.
 */
export function conversationPageQuery(
  models: MongoModels,
  chatbotId: string,
  filter: TimeRange & { sources?: ConversationSource[] },
  page: Page,
) {
  return models.conversations
    .find({
      chatbotId,
      ...createdWithin(filter),
      ...(filter.sources?.length && { source: { $in: filter.sources } }),
    })
    .sort({ createdAt: -1, _id: -1 })
    .skip(pageOffset(page))
    .limit(page.size);
}

export function mongoConversations(models: MongoModels): ConversationRepository {
  const { conversations } = models;

  return {
    // One document write, so concurrent appends cannot lose each other's messages, and $push with
    // $each keeps each batch together and in order.
    async append(input) {
      const { chatbotId, accountId, id, source, contactId, at } = input;
      await retryOnceOnDuplicateKey(() =>
        conversations.updateOne(
          { _id: documentId(chatbotId, id) },
          {
            $setOnInsert: { chatbotId, conversationId: id, accountId, source, contactId, createdAt: at },
            $push: { messages: { $each: input.messages.map((message) => ({ id: nanoid(), ...message })) } },
            $max: { updatedAt: at },
          },
          { upsert: true },
        ),
      );
    },
    async find(chatbotId, id) {
      const doc = await conversations
        .findOne({ _id: documentId(chatbotId, id), chatbotId })
        .lean<ConversationDoc>();
      return doc ? toConversation(doc) : undefined;
    },
    async list(chatbotId, filter, page) {
      const docs = await conversationPageQuery(models, chatbotId, filter, page).lean<ConversationDoc[]>();
      return docs.map(toConversation);
    },
  };
}
