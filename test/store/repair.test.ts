import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mongoose from 'mongoose';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { INSERTED_REVISION, type Account, type Chatbot, type Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Store.repair mends what a crash between two writes of one operation leaves behind where the
// engine has no transactions. Each crash is simulated by making the first write and not the second.

const lead = (chatbot: Chatbot) => ({
  id: randomUUID(),
  chatbotId: chatbot.id,
  accountId: chatbot.accountId,
  name: 'Ada',
  email: 'ada@example.com',
  phone: null,
  conversationId: null,
  createdAt: new Date(),
});

describe.each(storeTargets.filter((target) => target.available))('$name store: repair', (target) => {
  let store: Store;
  beforeEach(async () => {
    store = await target.open();
  });
  afterEach(async () => {
    await store.close();
  });

  it('finds nothing to mend in a store whose writes all completed', async () => {
    const account = await seedAccount(store);
    const [kept, removed] = [await seedChatbot(store, account), await seedChatbot(store, account)];
    const at = new Date();
    const hello = { id: 'hello', chatbotId: kept.id, type: 'text' as const, title: 'Hi', status: 'ready' as const, error: null, chars: 6, createdAt: at, updatedAt: at };
    await store.sources.insert([{ ...hello, text: 'Hello.' }]);
    const chunks = [{ text: 'Hello.', source: { id: hello.id, title: hello.title, type: hello.type } }];
    const runs = [{ id: hello.id, revision: INSERTED_REVISION, count: 1, chunksId: 'hello@0' }];
    await store.training.replace(kept.id, { chunks, runs, revision: await store.sources.nextRevision(kept.id) });
    await store.leads.insert(lead(kept));
    await store.leads.insert(lead(removed));
    await store.chatbots.delete(account.id, removed.id);

    expect(await store.repair({ settleMs: 0, chunkGraceMs: 0 })).toEqual({ counters: 0, orphans: 0 });
    expect(await store.leads.list(kept.id, {}, { page: 1, size: 10 })).toHaveLength(1);
    expect((await store.training.material(kept.id)).chunks).toHaveLength(1);
    // The material still holds the source's chunks for the next training.
    expect(await store.sources.trainedSources(kept.id)).toEqual([{ id: hello.id, revision: INSERTED_REVISION, chunks, chunksId: 'hello@0' }]);
  });
});

const mongoUri = inject('mongoUri');
const HOUR = 60 * 60_000;

// SQLite writes material and indexes in stages (store/sqlite/staging.ts): a crash mid-way leaves
// rows of a version that never became current. Simulated on a file with a second connection.
describe('sqlite store: repair after a crash', () => {
  let dir: string;
  let store: Store;
  let db: Database.Database;
  let chatbot: Chatbot;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-repair-'));
    store = await openStore(`sqlite:${join(dir, 'hub.db')}`);
    db = new Database(join(dir, 'hub.db'));
    chatbot = await seedChatbot(store, await seedAccount(store));
    await store.training.replace(chatbot.id, { sourceText: 'Current.', chunks: ['Current.'] });
  });
  afterEach(async () => {
    db.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const stage = (version: string, startedAt: Date) => {
    db.prepare('INSERT INTO training_stages (chatbot_id, version, started_at) VALUES (?, ?, ?)').run(chatbot.id, version, startedAt.getTime());
    db.prepare("INSERT INTO training_pages (chatbot_id, version, first_seq, text, offsets) VALUES (?, ?, 0, ?, x'')").run(chatbot.id, version, Buffer.from(version));
  };
  const versions = () =>
    db.prepare('SELECT DISTINCT version FROM training_pages WHERE chatbot_id = ?').pluck().all(chatbot.id) as string[];

  it('removes a staged version that never became current once it is old, not one still being written', async () => {
    const now = new Date();
    stage('abandoned', new Date(now.getTime() - 2 * HOUR));
    stage('in-flight', now);

    expect(await store.repair({ chunkGraceMs: HOUR, now })).toMatchObject({ orphans: 1 });
    expect(versions()).not.toContain('abandoned');
    expect(versions()).toContain('in-flight');
    expect((await store.training.material(chatbot.id)).chunks).toEqual([{ seq: 0, text: 'Current.' }]);
  });

  it('removes a displaced version whose deletion a crash cut short, and index parts of old material', async () => {
    const current = await store.training.version(chatbot.id);
    db.prepare("INSERT INTO training_pages (chatbot_id, version, first_seq, text, offsets) VALUES (?, ?, 0, ?, x'')").run(chatbot.id, 'displaced', Buffer.from('Old.'));
    db.prepare('INSERT INTO training_source_parts (chatbot_id, version, part, text) VALUES (?, ?, 0, ?)').run(chatbot.id, 'displaced', 'Old.');
    await store.retrieval.saveIndex(chatbot.id, current ?? '', new Uint8Array([1, 2, 3]));
    const part = db.prepare('INSERT INTO retrieval_index_parts (chatbot_id, version, part, data) VALUES (?, ?, 0, ?)');
    part.run(chatbot.id, 'displaced', Buffer.from([9]));

    expect(await store.repair({ chunkGraceMs: HOUR })).toMatchObject({ orphans: 3 });
    expect(versions()).toEqual([current]);
    expect(await store.training.sourceText(chatbot.id)).toBe('Current.');
    expect(await store.retrieval.index(chatbot.id, current ?? '')).toEqual(new Uint8Array([1, 2, 3]));
    expect(db.prepare('SELECT COUNT(*) FROM retrieval_index_parts').pluck().get()).toBe(1);
  });

  // A source's text and a file's bytes are written part by part under a fresh version (store/sqlite/source-parts.ts).
  it.each([
    { kind: 'text', parts: 'source_text_parts', value: 'text', valueOf: (version: string) => version },
    { kind: 'file', parts: 'source_file_parts', value: 'data', valueOf: (version: string) => Buffer.from(version) },
  ])('removes a source $kind never made current once it is old, a displaced one and one of a deleted source, not one still being written', async ({ parts, value, valueOf }) => {
    const now = new Date();
    await store.sources.insert([
      { id: 'kept', chatbotId: chatbot.id, type: 'file', title: 'T', status: 'ready', error: null, chars: 8, createdAt: now, updatedAt: now, text: 'Current.', file: Buffer.from('Current.') },
    ]);
    const part = (sourceId: string, version: string) =>
      db.prepare(`INSERT INTO ${parts} (chatbot_id, source_id, version, part, ${value}) VALUES (?, ?, ?, 0, ?)`).run(chatbot.id, sourceId, version, valueOf(version));
    const stage = (sourceId: string, version: string, startedAt: Date) => {
      db.prepare('INSERT INTO source_part_stages (source_id, version, started_at) VALUES (?, ?, ?)').run(sourceId, version, startedAt.getTime());
      part(sourceId, version);
    };
    const versions = () => db.prepare(`SELECT DISTINCT version FROM ${parts} ORDER BY version`).pluck().all() as string[];
    const [current] = versions();
    stage('kept', 'abandoned', new Date(now.getTime() - 2 * HOUR));
    stage('new-source', 'in-flight', now);
    part('kept', 'displaced');
    part('deleted-source', 'orphaned');

    expect(await store.repair({ chunkGraceMs: HOUR, now })).toMatchObject({ orphans: 3 });
    expect(versions()).toEqual([current, 'in-flight'].sort());
    expect(await store.sources.text(chatbot.id, 'kept', 100)).toBe('Current.');
    expect(await store.sources.file(chatbot.id, 'kept')).toEqual(Buffer.from('Current.'));
  });
});

describe.each(mongoUri === undefined ? [] : [mongoUri])('mongodb store: repair after a crash', (uri) => {
  let store: Store;
  let db: mongoose.Connection;
  let account: Account;

  beforeEach(async () => {
    const url = new URL(uri);
    url.pathname = `/switchboard_repair_${randomUUID().slice(0, 8)}`;
    store = await openStore(url.toString());
    db = await mongoose.createConnection(url.toString()).asPromise();
    account = await seedAccount(store);
  });
  afterEach(async () => {
    await store.close();
    await db.close();
  });

  const counter = async () =>
    ((await db.collection('accounts').findOne({ _id: account.id as never }))?.chatbotCount as number | undefined) ?? -1;

  it('lowers a chatbot counter left high by a deletion cut short, so the slot can be used again', async () => {
    const chatbots = [await seedChatbot(store, account), await seedChatbot(store, account)];
    // The chatbot is gone, but the crash came before its counter was lowered.
    await db.collection('chatbots').deleteOne({ _id: chatbots[1]!.id as never });
    expect(await counter()).toBe(2);

    expect(await store.repair({ settleMs: 0 })).toMatchObject({ counters: 1 });
    expect(await counter()).toBe(1);
  });

  it('leaves a counter alone while the chatbot that reserved it is still being written', async () => {
    await seedChatbot(store, account);
    // A reservation whose chatbot document is written a moment later, while the repair waits.
    await db.collection('accounts').updateOne({ _id: account.id as never }, { $inc: { chatbotCount: 1 } });
    const repair = store.repair({ settleMs: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await db.collection('chatbots').insertOne({ _id: 'in-flight' as never, accountId: account.id, createdAt: new Date() });

    expect(await repair).toMatchObject({ counters: 0 });
    expect(await counter()).toBe(2);
  });

  it('removes what a deleted chatbot left behind when the cascade was cut short, and nothing else', async () => {
    const [kept, deleted] = [await seedChatbot(store, account), await seedChatbot(store, account)];
    for (const chatbot of [kept, deleted]) {
      await store.leads.insert(lead(chatbot));
      await store.training.replace(chatbot.id, { sourceText: 'Hi.', chunks: ['Hi.'] });
    }
    // The chatbot, its counter and its source went in one step; the crash came before its children.
    await db.collection('chatbots').deleteOne({ _id: deleted.id as never });
    await db.collection('accounts').updateOne({ _id: account.id as never }, { $inc: { chatbotCount: -1 } });
    await db.collection('trainingSources').deleteOne({ _id: deleted.id as never });

    const report = await store.repair({ settleMs: 0 });
    // The lead, the page block counting it, the hour counting it, and the chunk.
    expect(report.orphans).toBe(4);
    expect(await db.collection('leads').countDocuments({ chatbotId: deleted.id })).toBe(0);
    expect(await db.collection('pageBlocks').countDocuments({ chatbotId: deleted.id })).toBe(0);
    expect(await db.collection('trainingChunks').countDocuments({ chatbotId: deleted.id })).toBe(0);
    expect(await db.collection('activityHours').countDocuments({ chatbotId: deleted.id })).toBe(0);
    expect(await store.leads.list(kept.id, {}, { page: 1, size: 10 })).toHaveLength(1);
    expect((await store.training.material(kept.id)).chunks).toEqual([{ seq: 0, text: 'Hi.' }]);
  });

  it('removes the index, vectors, webhooks, revision counter and crawled pages a cut-short cascade left, and no one else’s', async () => {
    const [kept, deleted] = [await seedChatbot(store, account), await seedChatbot(store, account)];
    const at = new Date();
    for (const chatbot of [kept, deleted]) {
      const id = chatbot.id;
      await db.collection('retrievalIndexParts').insertOne({ chatbotId: id, version: 'v1', part: 0, parts: 1, data: 'AAAA' });
      await db.collection('retrievalVectors').insertOne({ chatbotId: id, hash: 'h', model: 'm', vector: Buffer.alloc(4) });
      await db.collection('webhooks').insertOne({ _id: `hook-${id}` as never, accountId: account.id, chatbotId: id, url: 'https://x.example', events: [], secret: 's', enabled: true, createdAt: at, updatedAt: at });
      await db.collection('sourceRevisions').insertOne({ _id: id as never, revision: 3 });
      await db.collection('sources').insertOne({ _id: `site-${id}` as never, chatbotId: id, type: 'website', title: 'Site', status: 'ready', error: null, chars: 5, createdAt: at, updatedAt: at });
      await db.collection('sourcePages').insertOne({ sourceId: `site-${id}`, seq: 0, url: 'https://example.com/', title: 'Home', status: 'read', chars: 5, text: 'Hello' });
    }
    await db.collection('webhooks').insertOne({ _id: 'every-bot' as never, accountId: account.id, chatbotId: null, url: 'https://x.example', events: [], secret: 's', enabled: true, createdAt: at, updatedAt: at });
    // The chatbot and its sources went; the crash came before the rest of its children.
    await db.collection('chatbots').deleteOne({ _id: deleted.id as never });
    await db.collection('sources').deleteOne({ _id: `site-${deleted.id}` as never });

    expect(await store.repair({ settleMs: 0 })).toMatchObject({ orphans: 5 });
    for (const collection of ['retrievalIndexParts', 'retrievalVectors', 'webhooks']) {
      expect(await db.collection(collection).distinct('chatbotId')).toEqual(collection === 'webhooks' ? [null, kept.id] : [kept.id]);
    }
    expect(await db.collection('sourceRevisions').distinct('_id')).toEqual([kept.id]);
    expect(await db.collection('sourcePages').distinct('sourceId')).toEqual([`site-${kept.id}`]);
  });

  it('removes a chunk set that never became current once it is old, not one still being written', async () => {
    const chatbot = await seedChatbot(store, account);
    await store.training.replace(chatbot.id, { sourceText: 'Current.', chunks: ['Current.'] });
    const chunk = (version: string, writtenAt: Date) => ({
      _id: mongoose.Types.ObjectId.createFromTime(Math.floor(writtenAt.getTime() / 1000)),
      chatbotId: chatbot.id,
      version,
      seq: 0,
      text: version,
    });
    const now = new Date();
    await db.collection('trainingChunks').insertMany([
      chunk('abandoned', new Date(now.getTime() - 2 * HOUR)),
      chunk('in-flight', now),
    ]);

    expect(await store.repair({ settleMs: 0, chunkGraceMs: HOUR, now })).toMatchObject({ orphans: 1 });
    const versions = await db.collection('trainingChunks').distinct('version', { chatbotId: chatbot.id });
    expect(versions).not.toContain('abandoned');
    expect(versions).toContain('in-flight');
    expect((await store.training.material(chatbot.id)).chunks).toEqual([{ seq: 0, text: 'Current.' }]);
  });

  it('removes source text parts no source names once they are old, not those still being written', async () => {
    const chatbot = await seedChatbot(store, account);
    const at = new Date();
    await store.sources.insert([
      { id: 'kept', chatbotId: chatbot.id, type: 'text', title: 'T', status: 'ready', error: null, chars: 8, createdAt: at, updatedAt: at, text: 'Current.' },
    ]);
    const part = (sourceId: string, version: string, writtenAt: Date) => ({
      _id: mongoose.Types.ObjectId.createFromTime(Math.floor(writtenAt.getTime() / 1000)),
      chatbotId: chatbot.id,
      sourceId,
      version,
      part: 0,
      text: version,
    });
    const [current] = await db.collection('sourceTextParts').distinct('version');
    const long = new Date(at.getTime() - 2 * HOUR);
    await db.collection('sourceTextParts').insertMany([
      part('kept', 'abandoned', long),
      part('deleted-source', 'orphaned', new Date(long.getTime() - 1000)),
      part('new-source', 'in-flight', at),
    ]);

    expect(await store.repair({ settleMs: 0, chunkGraceMs: HOUR, now: at })).toMatchObject({ orphans: 2 });
    expect((await db.collection('sourceTextParts').distinct('version')).sort()).toEqual([current, 'in-flight'].sort());
    expect(await store.sources.text(chatbot.id, 'kept', 100)).toBe('Current.');
  });
});
