import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunkText } from '../../src/engine/chunking.js';
import { createRetriever } from '../../src/engine/retrieval.js';
import { openStore } from '../../src/store/index.js';
import type { Chatbot, Store, TrainingRepository } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';

// Retrieval over a real SQLite store: the index is built from the stored material and rebuilt
// when a retrain changes its version.

const FAQ = [
  'Parcels ship from our warehouse in Leeds within two working days.',
  'Returns are free within thirty days; print the label from your account page.',
  'The warranty covers manufacturing defects for two years from delivery.',
  'Gift cards never expire and can be used online or in any of our shops.',
];

const train = (store: Store, chatbotId: string, chunks: string[]) =>
  store.training.replace(chatbotId, { sourceText: chunks.join('\n\n'), chunks });

describe('createRetriever (sqlite)', () => {
  let store: Store;
  let bot: Chatbot;

  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
    bot = await seedChatbot(store, await seedAccount(store));
  });
  afterEach(async () => {
    await store.close();
  });

  it('answers the best passage first, with its position and a score', async () => {
    await train(store, bot.id, FAQ);
    const passages = await createRetriever(store).search(bot.id, 'How long does the warranty last?');
    expect(passages[0]).toMatchObject({ text: FAQ[2], seq: 2, score: expect.any(Number) });
    const scores = passages.map((passage) => passage.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('matches other forms of the words and keeps to the limit', async () => {
    await train(store, bot.id, FAQ);
    const retriever = createRetriever(store);
    expect((await retriever.search(bot.id, 'returning an order'))[0]?.text).toBe(FAQ[1]);
    expect((await retriever.search(bot.id, 'parcel shipment'))[0]?.text).toBe(FAQ[0]);
    expect((await retriever.search(bot.id, 'expiry of gift card'))[0]?.text).toBe(FAQ[3]);
    const many = Array.from({ length: 10 }, (_, i) => `Shop number ${i} sells gift cards.`);
    await train(store, bot.id, many);
    expect(await retriever.search(bot.id, 'gift cards')).toHaveLength(4);
    expect(await retriever.search(bot.id, 'gift cards', { limit: 2 })).toHaveLength(2);
  });

  // The stemmer (src/engine/text.ts) promises to fold plurals and common verb endings. These
  // three forms do not meet their base word, so a question using only them retrieves nothing.
  describe('word forms the stemmer should fold', () => {
    const only = async (chunks: string[], query: string) => {
      await train(store, bot.id, chunks);
      return (await createRetriever(store).search(bot.id, query)).map((passage) => passage.text);
    };

    it('meets the plural of a short word ending in -e ("prices" and "price")', async () => {
      const chunks = ['The price of a day pass is five euros.', 'Lockers are in the basement.'];
      expect(await only(chunks, 'What are the prices?')).toEqual([chunks[0]]);
      const closing = ['The store closes at ten.', 'Lockers are in the basement.'];
      expect(await only(closing, 'When do you close?')).toEqual([closing[0]]);
    });

    it('meets verb forms with a doubled consonant ("shipping" and "ship")', async () => {
      const chunks = ['We ship to every country in Europe.', 'Lockers are in the basement.'];
      expect(await only(chunks, 'Where is shipping available?')).toEqual([chunks[0]]);
    });

    it('meets the plural of an -ing noun ("bookings" and "booking")', async () => {
      const chunks = ['A booking can be changed up to a day ahead.', 'Lockers are in the basement.'];
      expect(await only(chunks, 'Tell me about bookings')).toEqual([chunks[0]]);
    });
  });

  // chunkText splits a paragraph longer than a chunk at every '.', '!' or '?' and re-joins the
  // pieces with a space (src/engine/chunking.ts, splitLong), so the stored passage alters prices
  // and addresses.
  it('keeps prices and addresses intact in the passages of a long paragraph', async () => {
    const paragraph =
      'Delivery costs 5.95 euros and claims go to support@lumen.example by email. ' +
      'Every lamp is tested twice before it leaves the warehouse. '.repeat(25);
    await store.training.replace(bot.id, { sourceText: paragraph, chunks: chunkText(paragraph) });
    const [best] = await createRetriever(store).search(bot.id, 'delivery costs');
    expect(best?.text).toContain('Delivery costs 5.95 euros and claims go to support@lumen.example by email.');
  });

  it('answers nothing for a query that matches nothing', async () => {
    await train(store, bot.id, FAQ);
    expect(await createRetriever(store).search(bot.id, 'xylophone')).toEqual([]);
    expect(await createRetriever(store).search(bot.id, 'the of and')).toEqual([]);
  });

  it('answers [] for an untrained chatbot and for an unknown one', async () => {
    const retriever = createRetriever(store);
    expect(await retriever.search(bot.id, 'warranty')).toEqual([]);
    expect(await retriever.search('no-such-chatbot', 'warranty')).toEqual([]);
  });

  it('searches the material of chunkText as trained through the domain would store it', async () => {
    const source = FAQ.join('\n\n');
    await store.training.replace(bot.id, { sourceText: source, chunks: chunkText(source, 120) });
    const [best] = await createRetriever(store).search(bot.id, 'warranty defects');
    expect(best?.text).toContain(FAQ[2]);
  });

  it('serves the new material after a retrain, which bumps the version', async () => {
    const retriever = createRetriever(store);
    await train(store, bot.id, FAQ);
    const before = await store.training.version(bot.id);
    expect(before).toEqual(expect.any(String));
    expect((await retriever.search(bot.id, 'warranty'))[0]?.text).toBe(FAQ[2]);

    const revised = ['The warranty now covers accidental damage for three years.', 'Parcels ship from Bristol.'];
    await train(store, bot.id, revised);
    const after = await store.training.version(bot.id);
    expect(after).toEqual(expect.any(String));
    expect(after).not.toBe(before);

    const passages = await retriever.search(bot.id, 'warranty');
    expect(passages.map((passage) => passage.text)).toEqual([revised[0]]);
    expect((await retriever.search(bot.id, 'gift cards')).length).toBe(0);
    // Retraining with the very same text is still a new version.
    await train(store, bot.id, revised);
    expect(await store.training.version(bot.id)).not.toBe(after);
  });

  it('keeps chatbots apart and stays right when the cache evicts', async () => {
    const other = await seedChatbot(store, await seedAccount(store));
    await train(store, bot.id, FAQ);
    await train(store, other.id, ['The warranty of the other shop is six months.']);
    const retriever = createRetriever(store, { cacheBytes: 1 });
    for (let round = 0; round < 3; round += 1) {
      expect((await retriever.search(bot.id, 'warranty'))[0]?.text).toBe(FAQ[2]);
      expect((await retriever.search(other.id, 'warranty')).map((p) => p.text)).toEqual([
        'The warranty of the other shop is six months.',
      ]);
    }
  });

  it('builds the index once per version, not on every search', async () => {
    await train(store, bot.id, FAQ);
    let reads = 0;
    const counting: Store = {
      ...store,
      training: {
        ...store.training,
        material: (chatbotId: string) => {
          reads += 1;
          return store.training.material(chatbotId);
        },
      } as TrainingRepository,
    };
    const retriever = createRetriever(counting);
    await Promise.all(Array.from({ length: 5 }, () => retriever.search(bot.id, 'warranty')));
    await retriever.search(bot.id, 'returns');
    expect(reads).toBe(1);
    await train(store, bot.id, ['A new warranty.']);
    await retriever.search(bot.id, 'warranty');
    await retriever.search(bot.id, 'warranty');
    expect(reads).toBe(2);
  });

  it('answers searches during a retrain from the old material or the new, never a mix', async () => {
    const old = Array.from({ length: 6 }, (_, i) => `OLD policy ${i}: the warranty lasts ${i + 1} years for lamps.`);
    const fresh = Array.from({ length: 6 }, (_, i) => `NEW policy ${i}: the warranty lasts ${i + 1} months for lamps.`);
    await train(store, bot.id, old);

    // Every store read yields to the event loop first, so searches and retrains interleave.
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    const slow: TrainingRepository = {
      ...store.training,
      replace: async (chatbotId, material) => {
        await tick();
        return store.training.replace(chatbotId, material);
      },
      material: async (chatbotId) => {
        await tick();
        return store.training.material(chatbotId);
      },
      version: async (chatbotId) => {
        await tick();
        return store.training.version(chatbotId);
      },
    };
    const retriever = createRetriever({ ...store, training: slow });

    const searches: Promise<string[]>[] = [];
    const retrains: Promise<boolean>[] = [];
    for (let i = 0; i < 60; i += 1) {
      searches.push(retriever.search(bot.id, 'warranty lamps').then((passages) => passages.map((p) => p.text)));
      if (i % 10 === 5) retrains.push(slow.replace(bot.id, { sourceText: '', chunks: i % 20 === 5 ? fresh : old }));
      if (i % 3 === 0) await tick();
    }
    await Promise.all(retrains);
    const results = await Promise.all(searches);

    const kinds = results.map((texts) => {
      expect(texts).toHaveLength(4);
      const fromOld = texts.filter((text) => old.includes(text)).length;
      const fromNew = texts.filter((text) => fresh.includes(text)).length;
      expect([fromOld, fromNew].sort()).toEqual([0, 4]);
      return fromOld > 0 ? 'old' : 'new';
    });
    // The interleaving really happened: both materials were served.
    expect(new Set(kinds)).toEqual(new Set(['old', 'new']));

    // Once the retrains are done, the last one is what is served.
    const last = await retriever.search(bot.id, 'warranty lamps');
    expect(last.every((passage) => old.includes(passage.text))).toBe(true);
  });
});
