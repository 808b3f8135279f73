import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DONE_DELIVERY_RETENTION_MS, DONE_NOTICE_RETENTION_MS, maintainStore, startMaintenance } from '../../jobs/maintenance.js';
import { ping } from '../../src/domain/webhook-events.js';
import { openStore } from '../../src/store/index.js';
import type { Chatbot, HandoffRequestNotice, Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot, seedWebhook } from '../support/seed.js';
import { silent } from './helpers.js';

// The hourly upkeep removes done handoff notices and webhook deliveries once past their retention
// (the rules of what stays are the store contracts': test/store/handoff-notices-contract.test.ts,
// test/store/webhooks-contract.test.ts).

const NOW = new Date('2026-06-01T00:00:00.000Z');
const DAY = 24 * 60 * 60_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe('store maintenance', () => {
  let store: Store;
  let chatbot: Chatbot;

  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
    chatbot = await seedChatbot(store, await seedAccount(store));
  });
  afterEach(async () => {
    await store.close();
  });

  /** A handoff requested and posted `doneAgo` before NOW, then missed and replaced by a new one: its request is no longer needed. */
  async function replacedRequest(conversationId: string, doneAgo: number): Promise<string> {
    const requestedAt = ago(doneAgo + 60_000);
    await store.conversations.append({
      chatbotId: chatbot.id,
      accountId: chatbot.accountId,
      id: conversationId,
      source: 'API',
      contactId: null,
      messages: [{ role: 'user', content: 'A person please', createdAt: requestedAt }],
      at: requestedAt,
    });
    const notice: HandoffRequestNotice = {
      kind: 'requested',
      id: `request-${conversationId}`,
      accountId: chatbot.accountId,
      chatbotId: chatbot.id,
      chatbotName: chatbot.name,
      conversationId,
      source: 'API',
      platform: 'slack',
      workspaceId: 'T1',
      channelId: 'C1',
      handoff: { status: 'pending', requestedAt, takenBy: null },
      transcript: [],
      person: null,
      createdAt: requestedAt,
    };
    await store.handoffs.request(chatbot.id, conversationId, requestedAt, ago(doneAgo), notice);
    await store.handoffNotices.complete(chatbot.accountId, notice.id, { channelId: 'C1', threadId: conversationId }, ago(doneAgo));
    await store.handoffs.transition(chatbot.id, conversationId, ['pending'], { status: 'missed', dueAt: null, at: ago(doneAgo) });
    await store.handoffs.request(chatbot.id, conversationId, ago(doneAgo - 1), NOW);
    return notice.id;
  }

  it('removes the handoff notices done longer ago than the retention, and keeps the others', async () => {
    const old = await replacedRequest('old', DONE_NOTICE_RETENTION_MS + DAY);
    const recent = await replacedRequest('recent', DONE_NOTICE_RETENTION_MS - DAY);
    await maintainStore(store, silent, NOW);
    expect(await store.handoffNotices.complete(chatbot.accountId, old, undefined, NOW)).toBeUndefined();
    expect(await store.handoffNotices.complete(chatbot.accountId, recent, undefined, NOW)).toMatchObject({ doneAt: ago(DONE_NOTICE_RETENTION_MS - DAY) });
  });

  it('removes the webhook deliveries done longer ago than the retention, and keeps the others', async () => {
    const webhook = await seedWebhook(store, chatbot.accountId, ['leads.submit'], NOW);
    const old = ping(webhook, ago(DONE_DELIVERY_RETENTION_MS + DAY));
    const recent = ping(webhook, ago(DONE_DELIVERY_RETENTION_MS + DAY));
    for (const delivery of [old, recent]) await store.webhookOutbox.enqueue(delivery);
    await store.webhookOutbox.claimDue({ now: NOW, claimedBy: 'hub', leaseUntil: NOW, limit: 2 });
    const delivered = (at: Date) => ({ at, status: 'delivered' as const, responseStatus: 204, error: null, nextAttemptAt: at });
    await store.webhookOutbox.settle(old.id, 'hub', delivered(ago(DONE_DELIVERY_RETENTION_MS + DAY)));
    await store.webhookOutbox.settle(recent.id, 'hub', delivered(ago(DONE_DELIVERY_RETENTION_MS - DAY)));
    await maintainStore(store, silent, NOW);
    expect(await store.webhookOutbox.find(old.id)).toBeUndefined();
    expect(await store.webhookOutbox.find(recent.id)).toMatchObject({ status: 'delivered' });
  });
});

describe('startMaintenance', () => {
  it('stops within its grace while a repair is still waiting (SIGTERM must not wait out the 30 s of the MongoDB repair)', async () => {
    const store = await openStore('sqlite::memory:');
    let repairing!: () => void;
    const called = new Promise<void>((resolve) => (repairing = resolve));
    const stuck: Store = Object.assign(Object.create(store) as Store, {
      repair: () => {
        repairing();
        return new Promise<never>(() => undefined);
      },
    });
    // Every second: the first pass starts within one.
    const maintenance = startMaintenance(stuck, silent, { schedule: '* * * * * *' });
    await called;
    await maintenance.stop(50);
    await store.close();
  });
});
