import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { withDatabase } from '../support/stores.js';

// MongoDB refuses a document over 16 MiB of BSON, and the emulator these tests may run on does
// not: so the tests look at how a long text is kept, not at whether a server refuses it.

const mongoUri = inject('mongoUri');
const MiB = 1024 * 1024;

describe.skipIf(mongoUri === undefined)('mongodb store: long source texts', () => {
  let store: Store;
  let raw: mongoose.Connection;
  beforeEach(async () => {
    const url = withDatabase(mongoUri ?? '', `switchboard_texts_${randomUUID().slice(0, 8)}`);
    store = await openStore(url);
    raw = await mongoose.createConnection(url).asPromise();
  });
  afterEach(async () => {
    await store.close();
    await raw.dropDatabase();
    await raw.close();
  });

  /** The BSON size of the largest document of any collection. */
  const largestDocument = async () => {
    let largest = 0;
    for (const { name } of await raw.db!.listCollections().toArray()) {
      for await (const doc of raw.collection(name).find()) largest = Math.max(largest, mongoose.mongo.BSON.calculateObjectSize(doc));
    }
    return largest;
  };

  it('keeps a 20 MB file’s settled text and a text near the 16 MB body limit in documents of a few MB', async () => {
    const chatbot = await seedChatbot(store, await seedAccount(store));
    const at = new Date();
    // Two bytes of UTF-8 a character: 16 million of them were 32 MB in one document.
    const accented = 'é'.repeat(16_000_000);
    const file = 'File line.\n'.repeat(2_000_000);
    await store.sources.insert([
      { id: 'text', chatbotId: chatbot.id, type: 'text', title: 'T', status: 'ready', error: null, chars: accented.length, createdAt: at, updatedAt: at, text: accented },
      { id: 'file', chatbotId: chatbot.id, type: 'file', title: 'f.txt', status: 'queued', error: null, chars: 0, createdAt: at, updatedAt: at },
    ]);
    await store.sources.claimNext({ now: at, claimedBy: 'p', leaseUntil: new Date(at.getTime() + 60_000) });
    await store.sources.settle('file', 'p', { status: 'ready', text: file, chars: file.length, updatedAt: at });

    expect(await largestDocument()).toBeLessThan(3 * MiB);
    expect((await store.sources.text(chatbot.id, 'text', Number.MAX_SAFE_INTEGER)) === accented).toBe(true);
    expect((await store.sources.texts(chatbot.id, 'file'))[0]?.text === file).toBe(true);
  });

  // Parts are written under a version before the source that names it (the sources job of any hub
  // claims a queued source at once); bytes stored before versions have none, and stay readable.
  it('reads and keeps a file’s bytes stored before versions, and repairs parts no source names', async () => {
    const chatbot = await seedChatbot(store, await seedAccount(store));
    const at = new Date();
    const old = { _id: 'old', chatbotId: chatbot.id, type: 'file', title: 'old.txt', status: 'queued', error: null, chars: 0, textVersion: null, createdAt: at, updatedAt: at };
    await raw.collection('sources').insertOne(old as never);
    await raw.collection('sourceFileParts').insertMany([
      { sourceId: 'old', part: 0, data: Buffer.from('Stored ') },
      { sourceId: 'old', part: 1, data: Buffer.from('before versions.') },
      // A crash between the parts and their source leaves these.
      { sourceId: 'never', version: 'v1', part: 0, data: Buffer.from('debris') },
      { sourceId: 'old', version: 'v2', part: 0, data: Buffer.from('debris') },
    ]);
    expect(await store.sources.file(chatbot.id, 'old')).toEqual(Buffer.from('Stored before versions.'));
    expect((await store.repair({ settleMs: 0, chunkGraceMs: 0 })).orphans).toBe(2);
    expect(await store.sources.file(chatbot.id, 'old')).toEqual(Buffer.from('Stored before versions.'));
    expect(await raw.collection('sourceFileParts').countDocuments()).toBe(2);
  });
});
