import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { MongoModels } from '../../src/store/mongo/models.js';
import { mongoUnanswered } from '../../src/store/mongo/unanswered.js';
import type { Chatbot, Store, UnansweredAsk, UnansweredExample } from '../../src/store/port.js';
import { seedAccount, seedChatbot, seedConversation } from '../support/seed.js';
import { openMongoWithModels, type MongoStoreWithModels } from '../support/stores.js';

// An unanswered ask racing the erasure of its conversation on MongoDB, where no write can check
// another collection: the erasure comes after the ask found its conversation, before it is written.
// The erasure wins all the same.

const mongoUri = inject('mongoUri');
const NOW = new Date('2026-03-10T12:00:00.000Z');
const ALL = { page: 1, size: 100 };

describe.skipIf(mongoUri === undefined)('mongodb: an unanswered ask racing its conversation’s erasure', () => {
  let opened: MongoStoreWithModels;
  let store: Store;
  let models: MongoModels;
  let chatbot: Chatbot;

  beforeEach(async () => {
    opened = await openMongoWithModels(mongoUri ?? '');
    ({ store, models } = opened);
    chatbot = await seedChatbot(store, await seedAccount(store));
  });
  afterEach(() => opened.close());

  const example = (conversationId: string): UnansweredExample => ({ conversationId, messageId: null, source: 'Widget or Iframe', askedAt: NOW });
  const ask = (conversationId: string, openingId = 'group-parcel'): UnansweredAsk => ({
    chatbotId: chatbot.id,
    accountId: chatbot.accountId,
    opening: { id: openingId, question: `Where is my parcel? (${conversationId})`, terms: ['parcel'] },
    example: example(conversationId),
  });

  /** Another process's unanswered questions: the erasure of `erase` runs just after it finds that conversation standing. */
  const racing = (erase: string) => {
    let erasing: Promise<boolean> | undefined;
    const { conversations } = models;
    const exists: typeof conversations.exists = (filter, ...rest) => {
      const found = conversations.exists(filter, ...rest);
      if ((filter as { _id?: unknown })._id !== `${chatbot.id}:${erase}`) return found;
      return found.then(async (doc) => {
        if (doc && !erasing) await (erasing = store.conversations.delete(chatbot.id, erase));
        return doc;
      }) as unknown as ReturnType<typeof conversations.exists>;
    };
    return mongoUnanswered({ ...models, conversations: Object.assign(Object.create(conversations) as typeof conversations, { exists }) });
  };

  it('keeps neither the example nor the group of an ask whose conversation is erased once it was found', async () => {
    for (const id of ['c1', 'c2', 'c3']) await seedConversation(store, chatbot, id, NOW);
    await store.unanswered.record(ask('c1'));

    expect(await racing('c2').repeat({ chatbotId: chatbot.id, terms: ['parcel'], question: 'parcel?', example: example('c2') })).toBe(false);
    expect(await racing('c3').record({ ...ask('c3', 'group-c3'), opening: { id: 'group-c3', question: 'I am Cy, my card was charged twice', terms: ['card'] } })).toBeUndefined();

    expect(await store.conversations.find(chatbot.id, 'c2')).toBeUndefined();
    expect(await store.conversations.find(chatbot.id, 'c3')).toBeUndefined();
    expect(await store.unanswered.list(chatbot.id, {}, ALL)).toEqual([
      expect.objectContaining({ id: 'group-parcel', examples: [example('c1')] }),
    ]);
  });
});
