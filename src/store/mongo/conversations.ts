import { pageOffset } from '../paging.js';
import type {
  Conversation,
  ConversationMessage,
  ConversationRepository,
  ConversationSource,
  Page,
  TimeRange,
} from '../port.js';
import type { ConversationDoc, ConversationMessageDoc, MongoModels } from './models.js';
import { createdWithin } from './time-range.js';
import { retryOnceOnDuplicateKey } from './upsert.js';

const documentId = (chatbotId: string, id: string) => `${chatbotId}:${id}`;

const toMessages = (docs: ConversationMessageDoc[]): ConversationMessage[] =>
  docs.map(({ role, content, createdAt }) => ({ role, content, createdAt }));

const toConversation = (doc: ConversationDoc): Conversation => ({
  id: doc.conversationId,
  chatbotId: doc.chatbotId,
  accountId: doc.accountId,
  source: doc.source,
  contactId: doc.contactId,
  messages: toMessages(doc.messages),
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
          { _id: documentId(chatbotId, id), chatbotId },
          {
            $setOnInsert: { conversationId: id, accountId, source, contactId, createdAt: at },
            $push: { messages: { $each: input.messages } },
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
    async recentMessages(chatbotId, id, limit) {
      const doc = await conversations
        .findOne({ _id: documentId(chatbotId, id), chatbotId }, { messages: { $slice: -limit } })
        .lean<Pick<ConversationDoc, 'messages'>>();
      return doc ? toMessages(doc.messages) : [];
    },
    async list(chatbotId, filter, page) {
      const docs = await conversationPageQuery(models, chatbotId, filter, page).lean<ConversationDoc[]>();
      return docs.map(toConversation);
    },
  };
}
