import { expect, it, onTestFinished } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { ConversationAppend, NewMessage } from '../../src/store/port.js';
import { tempDatabaseUrl } from '../support/processes.js';
import { seedAccount, seedChatbot } from '../support/seed.js';

// SQLite message ids are row numbers: reserved ones (a streamed reply names its message before it
// exists) must never be handed out again, by this connection or another process's.

it('never gives one message id twice across two connections to one database', async () => {
  const url = tempDatabaseUrl();
  const [first, second] = [await openStore(url), await openStore(url)];
  onTestFinished(async () => {
    await first.close();
    await second.close();
  });
  const account = await seedAccount(first);
  const bot = await seedChatbot(first, account);
  const exchange = (messages: NewMessage[]): ConversationAppend => ({
    chatbotId: bot.id,
    accountId: account.id,
    id: 'shared',
    source: 'API',
    contactId: null,
    messages,
    at: new Date(),
  });
  const turn = (content: string, id?: string): NewMessage => ({ role: 'user', content, createdAt: new Date(), ...(id && { id }) });

  const reserved: string[] = [];
  for (let round = 0; round < 10; round += 1) {
    const [early] = await first.conversations.reserveMessageIds(1);
    // Written by the other connection while the reservation is pending.
    await second.conversations.append(exchange([turn(`plain ${round}`)]));
    reserved.push(...(await second.conversations.reserveMessageIds(2)), early ?? '');
    await first.conversations.append(exchange([turn(`reserved ${round}`, early)]));
  }

  const saved = (await second.conversations.find(bot.id, 'shared'))?.messages ?? [];
  expect(saved).toHaveLength(20);
  // 30 reservations, 10 of them used, and the 10 plain messages' own ids: all different.
  expect(new Set([...reserved, ...saved.map((message) => message.id)]).size).toBe(30 + 10);
  for (const message of saved.filter((item) => item.content.startsWith('reserved'))) {
    expect(reserved).toContain(message.id);
  }
});
