import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteAccount } from '../../src/domain/accounts.js';
import { apiKeyRecord } from '../../src/domain/api-keys.js';
import { ping } from '../../src/domain/webhook-events.js';
import type { Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// A client leaving: deleting its account leaves nothing of it behind, and touches no other account.

const NOW = new Date('2026-11-26T12:00:00.000Z');
const LATER = new Date(NOW.getTime() + 60 * 60_000);
const PERIOD = '2026-11';

describe.each(storeTargets.filter((target) => target.available))('$name store: deleting an account', (target) => {
  let store: Store;
  beforeEach(async () => {
    store = await target.open();
  });
  afterEach(async () => {
    await store.close();
  });

  /** An account holding one of everything an account holds, and the handles to find each again. */
  async function furnished() {
    const account = await seedAccount(store);
    const chatbot = await seedChatbot(store, account);
    const key = apiKeyRecord(`sb_${randomUUID()}`, account.id);
    await store.accounts.addKey(key);
    const session = { tokenHash: randomUUID(), accountId: account.id, apiKeyHash: key.hash, createdAt: NOW, lastUsedAt: NOW, expiresAt: LATER };
    await store.consoleSessions.create(session);
    const link = { tokenHash: randomUUID(), accountId: account.id, expiresAt: LATER };
    await store.consoleSessions.addLink(link);
    await store.usage.reserveMessage(account.id, PERIOD, 10);
    await store.adapterClaims.claim(account.id, 'discord:message:1', NOW, LATER);
    const webhook = {
      id: randomUUID(), accountId: account.id, url: 'https://crm.example.com/hook', events: ['leads.submit' as const], chatbotId: null,
      secret: 'whsec_x', enabled: true, disabledReason: null, failingSince: null, createdAt: NOW, updatedAt: NOW,
    };
    await store.webhooks.create(webhook);
    const delivery = ping(webhook, NOW);
    await store.webhookOutbox.enqueue(delivery);
    await store.webhookOutbox.claimDue({ now: NOW, claimedBy: 'hub', leaseUntil: LATER, limit: 10 });
    await store.webhookOutbox.settle(delivery.id, 'hub', { at: NOW, status: 'delivered', nextAttemptAt: NOW, responseStatus: 200, error: null });
    await store.leads.insert({ id: randomUUID(), chatbotId: chatbot.id, accountId: account.id, name: 'Ada', email: 'ada@example.com', phone: null, conversationId: null, createdAt: NOW });
    return { account, chatbot, key, session, link, webhook, delivery };
  }

  const remains = async ({ account, chatbot, key, session, link, webhook, delivery }: Awaited<ReturnType<typeof furnished>>) => ({
    account: (await store.accounts.findById(account.id)) !== undefined,
    key: (await store.accounts.findByKeyHash(key.hash)) !== undefined,
    session: (await store.consoleSessions.find(session.tokenHash, NOW)) !== undefined,
    usage: await store.usage.messagesUsed(account.id, PERIOD),
    claim: await store.adapterClaims.held(account.id, 'discord:message:1', NOW),
    webhook: (await store.webhooks.findById(webhook.id)) !== undefined,
    delivery: (await store.webhookOutbox.find(delivery.id)) !== undefined,
    attempts: (await store.webhookOutbox.attempts(webhook.id, { page: 1, size: 10 })).length,
    chatbot: (await store.chatbots.findPublic(chatbot.id)) !== undefined,
    leads: (await store.leads.list(chatbot.id, {}, { page: 1, size: 10 })).length,
    link: (await store.consoleSessions.takeLink(link.tokenHash, NOW)) !== undefined,
  });

  it('deletes the account with its keys, sessions, links, usage, claims, webhooks and chatbots, and nothing of another', async () => {
    const leaving = await furnished();
    const staying = await furnished();

    await deleteAccount(store, leaving.account);

    expect(await remains(leaving)).toEqual({
      account: false, key: false, session: false, usage: 0, claim: false, webhook: false, delivery: false, attempts: 0, chatbot: false, leads: 0, link: false,
    });
    expect(await remains(staying)).toEqual({
      account: true, key: true, session: true, usage: 1, claim: true, webhook: true, delivery: true, attempts: 1, chatbot: true, leads: 1, link: true,
    });
  });

});
