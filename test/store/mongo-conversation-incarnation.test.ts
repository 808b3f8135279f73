import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { MongoModels } from '../../src/store/mongo/models.js';
import type { Chatbot, Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot, seedConversation } from '../support/seed.js';
import { openMongoWithModels, type MongoStoreWithModels } from '../support/stores.js';

// A conversation stored before conversations had an incarnation has none in its document: it
// reads as null, keeps null as it goes on and is handed off (so its older events still match
// it), and one begun afresh under its id after it is erased gets a name of its own.

const mongoUri = inject('mongoUri');
const NOW = new Date('2026-03-10T12:00:00.000Z');
const LATER = new Date('2026-03-10T12:05:00.000Z');

describe.skipIf(mongoUri === undefined)('mongodb: a conversation stored before incarnations', () => {
  let opened: MongoStoreWithModels;
  let store: Store;
  let models: MongoModels;
  let chatbot: Chatbot;

  beforeEach(async () => {
    opened = await openMongoWithModels(mongoUri ?? '');
    ({ store, models } = opened);
    chatbot = await seedChatbot(store, await seedAccount(store));
    await seedConversation(store, chatbot, 'old', NOW);
    await models.conversations.collection.updateOne({ _id: `${chatbot.id}:old` } as never, { $unset: { incarnation: '' } });
  });
  afterEach(() => opened.close());

  it('reads as null while it stands, handed off or going on', async () => {
    expect(await models.conversations.collection.findOne({ _id: `${chatbot.id}:old` } as never)).not.toHaveProperty('incarnation');
    expect(await store.conversations.incarnation(chatbot.id, 'old')).toBeNull();
    expect(await store.handoffs.request(chatbot.id, 'old', NOW, LATER)).toMatchObject({ status: 'pending', incarnation: null });
    await seedConversation(store, chatbot, 'old', LATER);
    expect(await store.conversations.incarnation(chatbot.id, 'old')).toBeNull();
    expect(await store.handoffs.transition(chatbot.id, 'old', ['pending'], { status: 'resolved', dueAt: null, at: LATER })).toMatchObject({ incarnation: null });
  });

  it('is named afresh once erased and begun again under its id', async () => {
    await store.conversations.delete(chatbot.id, 'old');
    await seedConversation(store, chatbot, 'old', LATER);
    expect(await store.conversations.incarnation(chatbot.id, 'old')).toMatch(/^[0-9a-f]{24}$/);
  });
});
