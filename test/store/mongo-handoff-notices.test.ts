import mongoose from 'mongoose';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { stashNotices } from '../../src/store/mongo/handoff-notices.js';
import type { MongoModels } from '../../src/store/mongo/models.js';
import type { Chatbot, HandoffFollowUp, HandoffRequestNotice, Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { openMongoWithModels, type MongoStoreWithModels } from '../support/stores.js';

// MongoDB writes a handoff notice into its conversation's document with the change it tells of,
// then moves it into the feed. A crash between the two leaves it in the document: the next claim
// of the account moves it, in order, and nothing is lost.

const mongoUri = inject('mongoUri');
const NOW = new Date('2026-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);

// Skipped, with the reason printed by test/support/global-setup.ts, where no mongod can be had.
describe.skipIf(mongoUri === undefined)('mongodb handoff notices after a crash', () => {
  let opened: MongoStoreWithModels;
  let store: Store;
  let models: MongoModels;
  let chatbot: Chatbot;

  beforeEach(async () => {
    opened = await openMongoWithModels(mongoUri ?? '');
    ({ store, models } = opened);
    chatbot = await seedChatbot(store, await seedAccount(store));
    await store.conversations.append({
      chatbotId: chatbot.id,
      accountId: chatbot.accountId,
      id: 'c1',
      source: 'API',
      contactId: null,
      messages: [{ role: 'user', content: 'agent please', createdAt: NOW }],
      at: NOW,
    });
  });
  afterEach(() => opened.close());

  const handoff = { status: 'pending' as const, requestedAt: NOW, takenBy: null };
  const requestNotice = (): HandoffRequestNotice => ({
      kind: 'requested',
      id: 'r1',
      accountId: chatbot.accountId,
      chatbotId: chatbot.id,
      chatbotName: chatbot.name,
      conversationId: 'c1',
      source: 'API',
      platform: 'slack',
      workspaceId: 'T1',
      channelId: 'C1',
      handoff,
      transcript: [{ role: 'user', content: 'agent please' }],
      person: null,
      createdAt: NOW,
  });
  const claim = (now: Date) => store.handoffNotices.claim({ accountId: chatbot.accountId, platform: 'slack', now, leaseUntil: at(60_000), limit: 10 });

  it('moves the notices a crash left in the conversation’s document into the feed, in order', async () => {
    const request = requestNotice();
    const message: HandoffFollowUp = { kind: 'message', id: 'm1', chatbotId: chatbot.id, conversationId: 'c1', handoff, text: 'Hello?', createdAt: at(1) };
    // The first write of each, as the handoff's request and the person's message make it; then the crash.
    await models.conversations.updateOne(
      { _id: `${chatbot.id}:c1` },
      { $set: { handoff: { ...handoff, dueAt: at(300_000), updatedAt: NOW, claimedBy: null, leaseUntil: null } }, ...stashNotices([request]) },
    );
    await models.conversations.updateOne({ _id: `${chatbot.id}:c1` }, stashNotices([message]));

    expect(await claim(at(10))).toMatchObject([{ id: 'r1', kind: 'requested', thread: null }]);
    await store.handoffNotices.complete(chatbot.accountId, 'r1', { channelId: 'C1', threadId: '1.1' }, at(20));
    expect(await claim(at(30))).toMatchObject([{ id: 'm1', kind: 'message', text: 'Hello?', thread: { channelId: 'C1', threadId: '1.1' } }]);
    const doc = await models.conversations.findById(`${chatbot.id}:c1`).lean<{ handoffOutbox?: unknown[] }>();
    expect(doc?.handoffOutbox).toEqual([]);
  });

  it('offers a request before a follow-up another process wrote in the same millisecond with a lower seq', async () => {
    const { id, kind, ...fields } = requestNotice();
    const [lower, higher] = [new mongoose.Types.ObjectId(), new mongoose.Types.ObjectId()];
    const undone = { undone: true as const, leaseUntil: null, doneAt: null };
    await models.handoffNotices.create({ _id: id, kind, requestId: id, seq: higher, ...fields, ...undone });
    await models.handoffNotices.create({ _id: 'm1', kind: 'message', requestId: id, seq: lower, ...fields, transcript: undefined, person: undefined, text: 'Hello?', ...undone });
    expect(await claim(at(10))).toMatchObject([{ id: 'r1', kind: 'requested' }]);
    await store.handoffNotices.complete(chatbot.accountId, 'r1', { channelId: 'C1', threadId: '1.1' }, at(20));
    expect(await claim(at(30))).toMatchObject([{ id: 'm1', kind: 'message', thread: { channelId: 'C1', threadId: '1.1' } }]);
  });
});
