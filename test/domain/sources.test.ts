import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addQaSource, findSource, updateSource } from '../../src/domain/sources.js';
import type { Account, Chatbot, Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Edits of one source at once: each keeps what it does not change.

describe.each(storeTargets.filter((target) => target.available))('$name store: source edits at once', (target) => {
  let store: Store;
  let owner: Account;
  let bot: Chatbot;

  beforeEach(async () => {
    store = await target.open();
    owner = await seedAccount(store);
    bot = await seedChatbot(store, owner);
  });
  afterEach(async () => {
    await store.close();
  });

  it('keeps both of two Q&A edits, one of the question and one of the answer', async () => {
    const qa = await addQaSource(store, owner, bot.id, { question: 'Do you bake gluten-free bread?', answer: 'Yes, every Friday.' });
    await Promise.all([
      updateSource(store, owner, bot.id, qa.id, { question: 'Is there gluten-free bread?' }),
      updateSource(store, owner, bot.id, qa.id, { answer: 'Yes, on Tuesdays.' }),
    ]);
    const { source, text } = await findSource(store, owner, bot.id, qa.id);
    expect(source).toMatchObject({ question: 'Is there gluten-free bread?', answer: 'Yes, on Tuesdays.' });
    expect(text).toBe('Is there gluten-free bread?\nYes, on Tuesdays.');
  });
});
