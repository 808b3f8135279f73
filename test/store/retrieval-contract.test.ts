import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Chatbot, Store } from '../../src/store/port.js';
import { countTurns } from '../support/event-loop.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// What retrieval keeps in the store: the serialized index of a material version and the chunk
// vectors by content hash. One behaviour for every adapter that can be had here.

const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) % 256);
const vector = (...values: number[]) => Float32Array.from(values);

describe.each(storeTargets.filter((target) => target.available))('$name store: retrieval', (target) => {
  let store: Store;
  let bot: Chatbot;
  let other: Chatbot;

  beforeEach(async () => {
    store = await target.open();
    const account = await seedAccount(store);
    bot = await seedChatbot(store, account);
    other = await seedChatbot(store, account);
  });
  afterEach(async () => {
    await store.close();
  });

  it('keeps one index per chatbot, for the version it was saved under', async () => {
    expect(await store.retrieval.index(bot.id, 'v1')).toBeUndefined();
    await store.retrieval.saveIndex(bot.id, 'v1', bytes(100, 1));
    expect(await store.retrieval.index(bot.id, 'v1')).toEqual(bytes(100, 1));
    expect(await store.retrieval.index(bot.id, 'v2')).toBeUndefined();
    expect(await store.retrieval.index(other.id, 'v1')).toBeUndefined();

    await store.retrieval.saveIndex(bot.id, 'v2', bytes(50, 2));
    expect(await store.retrieval.index(bot.id, 'v2')).toEqual(bytes(50, 2));
    expect(await store.retrieval.index(bot.id, 'v1')).toBeUndefined();
  });

  it('gives back an index larger than one MongoDB document byte for byte', async () => {
    const large = bytes(20 * 1024 * 1024 + 7, 3);
    await store.retrieval.saveIndex(bot.id, 'v1', large);
    expect(Buffer.compare(Buffer.from((await store.retrieval.index(bot.id, 'v1')) ?? []), Buffer.from(large))).toBe(0);
  });

  it('never gives back a mix of two versions when a save lands during a read', async () => {
    const first = bytes(3 * 1024 * 1024 + 5, 4);
    await store.retrieval.saveIndex(bot.id, 'v1', first);
    const reading = store.retrieval.index(bot.id, 'v1');
    await store.retrieval.saveIndex(bot.id, 'v2', bytes(3 * 1024 * 1024 + 5, 5));
    const read = await reading;
    if (read !== undefined) expect(Buffer.compare(Buffer.from(read), Buffer.from(first))).toBe(0);
    expect(Buffer.compare(Buffer.from((await store.retrieval.index(bot.id, 'v2')) ?? []), Buffer.from(bytes(3 * 1024 * 1024 + 5, 5)))).toBe(0);
  });

  it('serves other work while it saves or reads a large index', async () => {
    const large = bytes(8 * 1024 * 1024, 6);
    const turns = countTurns();
    try {
      await store.retrieval.saveIndex(bot.id, 'v1', large);
      const saving = turns.count;
      // A save or read that held the event loop to the end would let no other callback run.
      expect(saving).toBeGreaterThan(2);
      await store.retrieval.index(bot.id, 'v1');
      expect(turns.count - saving).toBeGreaterThan(2);
    } finally {
      turns.stop();
    }
  });

  it('stores vectors by chatbot, model and hash, exactly, replacing one saved again', async () => {
    const exact = vector(0.1, -2.5e-7, 3.4028234663852886e38, 1 / 3);
    await store.retrieval.saveVectors(bot.id, 'small', [
      { hash: 'b', vector: vector(1, 2) },
      { hash: 'a', vector: exact },
    ]);
    await store.retrieval.saveVectors(bot.id, 'large', [{ hash: 'a', vector: vector(9, 9, 9) }]);
    await store.retrieval.saveVectors(other.id, 'small', [{ hash: 'a', vector: vector(7) }]);
    await store.retrieval.saveVectors(bot.id, 'small', [{ hash: 'b', vector: vector(5, 6) }]);

    expect(await store.retrieval.vectors(bot.id, 'small')).toEqual([
      { hash: 'a', vector: exact },
      { hash: 'b', vector: vector(5, 6) },
    ]);
    expect(await store.retrieval.vectors(bot.id, 'large')).toEqual([{ hash: 'a', vector: vector(9, 9, 9) }]);
    expect(await store.retrieval.vectors(other.id, 'small')).toEqual([{ hash: 'a', vector: vector(7) }]);
    expect(await store.retrieval.vectors(bot.id, 'none')).toEqual([]);
  });

  it('prunes the vectors of hashes no longer trained, for that chatbot only', async () => {
    const three = ['a', 'b', 'c'].map((hash, i) => ({ hash, vector: vector(i) }));
    await store.retrieval.saveVectors(bot.id, 'small', three);
    await store.retrieval.saveVectors(bot.id, 'large', three);
    await store.retrieval.saveVectors(other.id, 'small', three);
    await store.retrieval.pruneVectors(bot.id, ['b']);
    expect((await store.retrieval.vectors(bot.id, 'small')).map((v) => v.hash)).toEqual(['b']);
    expect((await store.retrieval.vectors(bot.id, 'large')).map((v) => v.hash)).toEqual(['b']);
    expect((await store.retrieval.vectors(other.id, 'small')).map((v) => v.hash)).toEqual(['a', 'b', 'c']);
    await store.retrieval.pruneVectors(bot.id, []);
    expect(await store.retrieval.vectors(bot.id, 'small')).toEqual([]);
  });

  it('deletes the index and vectors with their chatbot', async () => {
    await store.retrieval.saveIndex(bot.id, 'v1', bytes(10, 1));
    await store.retrieval.saveVectors(bot.id, 'small', [{ hash: 'a', vector: vector(1) }]);
    await store.chatbots.delete(bot.accountId, bot.id);
    expect(await store.retrieval.index(bot.id, 'v1')).toBeUndefined();
    expect(await store.retrieval.vectors(bot.id, 'small')).toEqual([]);
  });
});
