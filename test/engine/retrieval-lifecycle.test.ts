import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createByteCache } from '../../src/engine/index-cache.js';
import { createRetriever } from '../../src/engine/retrieval.js';
import { chunkOffThread, chunkSourcesOffThread } from '../../src/engine/workers/training-jobs.js';
import type { Chatbot, RetrievalRepository, Store } from '../../src/store/port.js';
import { finishOrder, startBystander } from '../support/event-loop.js';
import { seedAccount, seedChatbot } from '../support/seed.js';

// How indexes are built (in a worker thread, once per material version, kept in the store) and
// how many are kept in memory (a budget of bytes, least recently used out first).

const train = (store: Store, chatbotId: string, chunks: string[]) =>
  store.training.replace(chatbotId, { sourceText: chunks.join('\n\n'), chunks });

describe('createByteCache', () => {
  it('evicts the least recently used entries until the new one fits the budget of bytes', () => {
    const cache = createByteCache<string>(100);
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    expect(cache.get('a')).toBe('A');
    cache.set('c', 'C', 40);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c')]).toEqual(['A', 'C']);
    expect(cache.bytes()).toBe(80);
    cache.set('a', 'A2', 10);
    expect(cache.bytes()).toBe(50);
    // Larger than the whole budget: kept alone, until the next one arrives.
    cache.set('huge', 'H', 500);
    expect([cache.get('a'), cache.get('c'), cache.get('huge')]).toEqual([undefined, undefined, 'H']);
    expect(cache.bytes()).toBe(500);
    cache.set('d', 'D', 1);
    expect([cache.get('huge'), cache.get('d'), cache.bytes()]).toEqual([undefined, 'D', 1]);
  });
});

describe('retrieval index lifecycle (sqlite)', () => {
  let store: Store;
  let bot: Chatbot;
  let other: Chatbot;

  // Counts what the retriever asks of the store's retrieval repository.
  const counted = (calls: { index: number; saveIndex: number }): Store => {
    const retrieval: RetrievalRepository = {
      ...store.retrieval,
      index: (...args) => {
        calls.index += 1;
        return store.retrieval.index(...args);
      },
      saveIndex: (...args) => {
        calls.saveIndex += 1;
        return store.retrieval.saveIndex(...args);
      },
    };
    return { ...store, retrieval };
  };

  beforeEach(async () => {
    store = await (await import('../../src/store/index.js')).openStore('sqlite::memory:');
    const account = await seedAccount(store);
    bot = await seedChatbot(store, account);
    other = await seedChatbot(store, account);
  });
  afterEach(async () => {
    await store.close();
  });

  it('keeps the cache within its bytes, evicting the least recently used chatbot', async () => {
    await train(store, bot.id, Array.from({ length: 200 }, (_, i) => `Lamp model ${i} has a warranty of ${i} months.`));
    await train(store, other.id, Array.from({ length: 200 }, (_, i) => `Desk model ${i} has a warranty of ${i} weeks.`));
    const probe = createRetriever(store);
    await probe.search(bot.id, 'warranty');
    const oneBot = probe.cachedBytes();
    expect(oneBot).toBeGreaterThan(1000);

    const calls = { index: 0, saveIndex: 0 };
    const retriever = createRetriever(counted(calls), { cacheBytes: Math.round(oneBot * 1.5) });
    await retriever.search(bot.id, 'warranty');
    expect(retriever.cachedBytes()).toBe(oneBot);
    await retriever.search(other.id, 'warranty');
    expect(retriever.cachedBytes()).toBeLessThanOrEqual(oneBot * 1.5);
    // The probe built and stored the first chatbot's index; the second is built here.
    expect(calls).toEqual({ index: 2, saveIndex: 1 });
    // The evicted one comes back from the store, not from a rebuild.
    expect((await retriever.search(bot.id, 'warranty'))[0]?.text).toMatch(/^Lamp model/);
    expect(calls).toEqual({ index: 3, saveIndex: 1 });
    await retriever.search(bot.id, 'warranty');
    expect(calls.index).toBe(3);
  });

  it('builds an index once per version and keeps it in the store for other processes', async () => {
    await train(store, bot.id, ['The warranty lasts two years.', 'Parcels ship from Leeds.']);
    const first = { index: 0, saveIndex: 0 };
    await (await createRetriever(counted(first)).prepare(bot.id)).stored;
    expect(first).toEqual({ index: 1, saveIndex: 1 });

    const second = { index: 0, saveIndex: 0 };
    const restarted = createRetriever(counted(second));
    expect((await restarted.search(bot.id, 'warranty'))[0]?.text).toBe('The warranty lasts two years.');
    expect(second).toEqual({ index: 1, saveIndex: 0 });

    await train(store, bot.id, ['The warranty lasts three years.']);
    expect((await restarted.search(bot.id, 'warranty'))[0]?.text).toBe('The warranty lasts three years.');
    expect(second).toEqual({ index: 2, saveIndex: 1 });
  });

  it('builds the index of chunks the training worker made from their names, reading no chunks, and from the chunks when it holds no reading of them', async () => {
    const hours = { id: 'hours', title: 'Hours', type: 'text' as const };
    const { chunksId, chunks } = await chunkSourcesOffThread([{ ref: hours, text: 'We open at nine.\n\nParcels ship from Leeds.' }]);
    const trainNamed = (name: string) => store.training.replace(bot.id, { chunks, runs: [{ id: hours.id, revision: 0, count: chunks.length, chunksId: name }] });
    let reads = 0;
    const counting: Store = { ...store, training: { ...store.training, material: (chatbotId) => ((reads += 1), store.training.material(chatbotId)) } };

    await trainNamed(chunksId);
    expect((await createRetriever(counting).search(bot.id, 'When do you open?'))[0]?.text).toMatch(/We open at nine/);
    expect(reads).toBe(0);
    // Named chunks the worker never read: another process's, or its reading evicted.
    await trainNamed('read-elsewhere');
    expect((await createRetriever(counting).search(bot.id, 'Where do parcels ship from?'))[0]?.text).toMatch(/Parcels ship from Leeds/);
    expect(reads).toBe(1);
  });

  it('answers from a built index before it is stored, and stores it after', async () => {
    await train(store, bot.id, ['The warranty lasts two years.']);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const retrieval: RetrievalRepository = {
      ...store.retrieval,
      saveIndex: async (...args) => {
        await held;
        return store.retrieval.saveIndex(...args);
      },
    };
    const retriever = createRetriever({ ...store, retrieval });
    // Were the answers to wait for the store, this would never resolve: the save is held.
    const { stored } = await retriever.prepare(bot.id);
    expect((await retriever.search(bot.id, 'warranty'))[0]?.text).toBe('The warranty lasts two years.');
    const calls = { index: 0, saveIndex: 0 };
    release();
    await stored;
    // Stored now: another process loads it instead of building its own.
    await createRetriever(counted(calls)).prepare(bot.id);
    expect(calls).toEqual({ index: 1, saveIndex: 0 });
  });

  it('keeps answering from the old material while a retrain\'s index builds', async () => {
    await train(store, bot.id, ['The warranty lasts two years.']);
    const retriever = createRetriever(store);
    await retriever.prepare(bot.id);
    await train(store, bot.id, ['The warranty lasts three years.']);
    // As the training route does: the build starts, and a question arrives before it ends.
    const preparing = retriever.prepare(bot.id);
    const during = await retriever.search(bot.id, 'warranty');
    await preparing;
    const after = await retriever.search(bot.id, 'warranty');
    expect([during[0]?.text, after[0]?.text]).toEqual(['The warranty lasts two years.', 'The warranty lasts three years.']);
  });

  describe('off the event loop', () => {
    let bystander: Awaited<ReturnType<typeof startBystander>>;
    beforeEach(async () => {
      bystander = await startBystander();
    });
    afterEach(async () => {
      await bystander.close();
    });

    const LARGE = Array.from(
      { length: 12_000 },
      (_, i) => `Paragraph ${i}: lamp ${i % 97} ships from warehouse ${i % 13} with warranty code W${i}.`,
    );

    // A request sent after a large build began must be answered before the build ends, which
    // cannot happen if the build holds the event loop.
    it('answers a request sent during a large index build before the build finishes', async () => {
      await train(store, bot.id, LARGE);
      expect(await finishOrder(bystander.url, () => createRetriever(store).prepare(bot.id))).toEqual(['request', 'work']);
    });

    it('answers a request sent while a large source is chunked before the chunking finishes', async () => {
      let chunks: unknown[] = [];
      const order = await finishOrder(bystander.url, async () => {
        chunks = await chunkOffThread(LARGE.join('\n\n').repeat(4));
      });
      expect(chunks.length).toBeGreaterThan(1000);
      expect(order).toEqual(['request', 'work']);
    });
  });
});
