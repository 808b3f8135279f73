import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { indexName } from '../../src/store/mongo/indexes.js';
import { openStore } from '../../src/store/index.js';

// Opening the store migrates MongoDB's indexes like SQLite's migrations: an index whose options
// changed is rebuilt under its new name (no IndexOptionsConflict stops the hub), old ones of ours
// are dropped, and indexes an operator made are left alone.

const mongoUri = inject('mongoUri');

const LEGACY_AT = new Date(Date.UTC(2026, 0, 1));

/** A database of its own, written raw as an earlier hub left it, holding the chatbot `bot`. */
async function legacyDatabase(uri: string, opened: { close(): Promise<void> }[]) {
  const url = new URL(uri);
  url.pathname = `/switchboard_legacy_${randomUUID().slice(0, 8)}`;
  const raw = await mongoose.createConnection(url.toString()).asPromise();
  opened.push(raw);
  const at = LEGACY_AT;
  await raw.collection('chatbots').insertOne({ _id: 'bot' as never, accountId: 'account', name: 'Bot', status: 'ready', settings: {}, createdAt: at, updatedAt: at });
  return { url, raw, at };
}

describe('mongodb index names', () => {
  const keys = { chatbotId: 1, email: 1 } as const;

  it('change with the options, so a changed index is a new one', () => {
    expect(indexName(keys, { unique: true })).not.toBe(indexName(keys, { unique: false }));
    expect(indexName(keys, {})).toMatch(/^sb_chatbotId_1_email_1_[0-9a-f]{8}$/);
  });

  it('do not depend on the order the options are written in', () => {
    const filter = { email: { $type: 'string' } };
    expect(indexName(keys, { unique: true, partialFilterExpression: filter })).toBe(
      indexName(keys, { partialFilterExpression: filter, unique: true }),
    );
  });
});

describe.each(mongoUri === undefined ? [] : [mongoUri])('mongodb index migration', (uri) => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
  });

  async function freshDatabase() {
    const url = new URL(uri);
    url.pathname = `/switchboard_indexes_${randomUUID().slice(0, 8)}`;
    const connection = await mongoose.createConnection(url.toString()).asPromise();
    opened.push(connection);
    return { url: url.toString(), contacts: connection.collection('contacts') };
  }

  const names = async (collection: mongoose.mongo.Collection) =>
    (await collection.listIndexes().toArray()).map((index) => index.name as string).sort();

  it('names every index after its keys and options', async () => {
    const { url, contacts } = await freshDatabase();
    opened.push(await openStore(url));
    const partialEmail = indexName(
      { chatbotId: 1, email: 1 },
      { unique: true, partialFilterExpression: { email: { $type: 'string' } } },
    );
    expect(await names(contacts)).toContain(partialEmail);
    expect((await names(contacts)).filter((name) => name !== '_id_').every((name) => name.startsWith('sb_'))).toBe(true);
  });

  it('replaces an earlier version of an index whose options changed, and keeps an operator index', async () => {
    const { url, contacts } = await freshDatabase();
    // As an earlier hub left it: the email index unique without its partial filter, default-named.
    await contacts.createIndex({ chatbotId: 1, email: 1 }, { unique: true });
    await contacts.createIndex({ chatbotId: 1, externalId: 1 }, { unique: true });
    await contacts.createIndex({ name: 1 }, { name: 'operator_contacts_by_name' });

    opened.push(await openStore(url));

    const after = await names(contacts);
    expect(after).not.toContain('chatbotId_1_email_1');
    expect(after).not.toContain('chatbotId_1_externalId_1');
    expect(after).toContain('operator_contacts_by_name');
    const email = (await contacts.listIndexes().toArray()).find((index) =>
      (index.name as string).startsWith('sb_chatbotId_1_email_1'),
    );
    expect(email).toMatchObject({ unique: true, partialFilterExpression: { email: { $type: 'string' } } });
  });

  it('is idempotent: a second start changes nothing', async () => {
    const { url, contacts } = await freshDatabase();
    opened.push(await openStore(url));
    const first = await names(contacts);
    opened.push(await openStore(url));
    expect(await names(contacts)).toEqual(first);
  });
});

describe.each(mongoUri === undefined ? [] : [mongoUri])('mongodb conversations kept in one document', (uri) => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
  });

  const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));
  const legacy = (chatbotId: string, conversationId: string, contents: string[]) => ({
    _id: `${chatbotId}:${conversationId}`,
    chatbotId,
    conversationId,
    accountId: 'account',
    source: 'API',
    contactId: null,
    messages: contents.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content, createdAt: at(i) })),
    createdAt: at(0),
    updatedAt: at(contents.length),
  });

  it('moves their messages to one document each at start-up, in order, and appends carry on after them', async () => {
    const url = new URL(uri);
    url.pathname = `/switchboard_legacy_${randomUUID().slice(0, 8)}`;
    const raw = await mongoose.createConnection(url.toString()).asPromise();
    opened.push(raw);
    await raw.collection('conversations').insertMany([
      legacy('bot', 'one', ['Hello?', 'Hi!', 'Open today?']) as never,
      legacy('bot', 'two', ['Anyone?']) as never,
    ]);
    // An earlier start moved one message of "one" before it crashed.
    await raw.collection('conversationMessages').insertOne({
      chatbotId: 'bot', conversationId: 'one', seq: 0, role: 'user', content: 'Hello?', createdAt: at(0),
    });

    const store = await openStore(url.toString());
    opened.push(store);
    await store.conversations.append({
      chatbotId: 'bot', accountId: 'account', id: 'one', source: 'API', contactId: null,
      messages: [{ role: 'assistant', content: 'Until five.', createdAt: at(9) }], at: at(9),
    });

    const one = await store.conversations.find('bot', 'one');
    expect(one?.messages.map((message) => message.content)).toEqual(['Hello?', 'Hi!', 'Open today?', 'Until five.']);
    expect((await store.conversations.find('bot', 'two'))?.messages).toMatchObject([
      { role: 'user', content: 'Anyone?', createdAt: at(0) },
    ]);
    expect(await raw.collection('conversations').countDocuments({ messages: { $exists: true } })).toBe(0);
    expect(await raw.collection('conversationMessages').countDocuments({ conversationId: 'one' })).toBe(4);
  });
});

describe.each(mongoUri === undefined ? [] : [mongoUri])('mongodb source texts of chatbots trained before sources', (uri) => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
  });

  it('become each chatbot’s API text source at start-up, its chunks tagged, once however often it starts', async () => {
    const { url, raw, at } = await legacyDatabase(uri, opened);
    await raw.collection('trainingSources').insertOne({ _id: 'bot' as never, sourceText: 'We open at nine.', version: 'v1' });
    await raw.collection('trainingChunks').insertOne({ chatbotId: 'bot', version: 'v1', seq: 0, text: 'We open at nine.' });

    for (let start = 0; start < 2; start += 1) opened.push(await openStore(url.toString()));
    const store = await openStore(url.toString());
    opened.push(store);

    expect(await store.sources.list('bot')).toEqual([
      { id: 'api_bot', chatbotId: 'bot', type: 'text', title: 'API text', status: 'ready', error: null, chars: 16, createdAt: at, updatedAt: at },
    ]);
    expect(await store.training.sourceText('bot')).toBe('We open at nine.');
    expect((await store.training.material('bot')).chunks).toEqual([
      { seq: 0, text: 'We open at nine.', source: { id: 'api_bot', title: 'API text', type: 'text' } },
    ]);
    expect(await raw.collection('trainingSources').countDocuments({ sourceText: { $exists: true } })).toBe(0);
  });
});

describe.each(mongoUri === undefined ? [] : [mongoUri])('mongodb source texts kept in their source’s document', (uri) => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
  });

  it('move into parts at start-up, once however often it starts, and read as before', async () => {
    const { url, raw, at } = await legacyDatabase(uri, opened);
    const long = 'Long text line.\n'.repeat(200_000);
    const fields = { chatbotId: 'bot', type: 'text', title: 'T', status: 'ready', error: null, createdAt: at, updatedAt: at };
    const source = { ...fields, revision: 0, chunkedRevision: null };
    await raw.collection('sources').insertMany([
      { _id: 'long' as never, ...source, chars: long.length, text: long },
      { _id: 'empty' as never, ...source, type: 'file', chars: 0, text: '' },
    ]);

    for (let start = 0; start < 2; start += 1) opened.push(await openStore(url.toString()));
    const store = await openStore(url.toString());
    opened.push(store);

    expect((await store.sources.text('bot', 'long', Number.MAX_SAFE_INTEGER)) === long).toBe(true);
    expect(await store.sources.text('bot', 'empty', 100)).toBe('');
    expect(await store.sources.find('bot', 'long')).toEqual({ id: 'long', ...fields, chars: long.length });
    expect(await raw.collection('sources').countDocuments({ text: { $exists: true } })).toBe(0);
    expect(await raw.collection('sourceTextParts').distinct('version')).toHaveLength(1);
    expect(await store.repair({ settleMs: 0, chunkGraceMs: 0 })).toMatchObject({ orphans: 0 });
  });
});

describe.each(mongoUri === undefined ? [] : [mongoUri])('mongodb source chunks kept beside the material', (uri) => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
  });

  it('go at start-up with their sources’ chunkedRevision, however often it starts, the sources chunked again', async () => {
    const { url, raw, at } = await legacyDatabase(uri, opened);
    const fields = { chatbotId: 'bot', type: 'text', title: 'T', status: 'ready', error: null, chars: 4, createdAt: at, updatedAt: at };
    await raw.collection('sources').insertOne({ _id: 'one' as never, ...fields, textVersion: null, revision: 2, chunkedRevision: 2 });
    await raw.collection('sourceChunks').insertOne({ chatbotId: 'bot', sourceId: 'one', revision: 2, seq: 0, text: 'One.', source: { id: 'one', title: 'T', type: 'text' } });
    await raw.collection('trainingSources').insertOne({ _id: 'bot' as never, version: 'v1', revision: 5 });
    await raw.collection('trainingChunks').insertOne({ chatbotId: 'bot', version: 'v1', seq: 0, text: 'One.', source: { id: 'one', title: 'T', type: 'text' } });

    for (let start = 0; start < 2; start += 1) opened.push(await openStore(url.toString()));
    const store = await openStore(url.toString());
    opened.push(store);

    const names = (await raw.db?.listCollections({}, { nameOnly: true }).toArray())?.map(({ name }) => name);
    expect(names).toContain('sources');
    expect(names).not.toContain('sourceChunks');
    expect(await raw.collection('sources').countDocuments({ chunkedRevision: { $exists: true } })).toBe(0);
    expect(await store.sources.find('bot', 'one')).toEqual({ id: 'one', ...fields });
    expect(await store.sources.trainedSources('bot')).toEqual([{ id: 'one', revision: 2 }]);
  });
});

describe.each(mongoUri === undefined ? [] : [mongoUri])('mongodb webhook deliveries stored before they named their chatbot', (uri) => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
  });

  it('are named from their bodies at start-up, attempts too, so the repair removes those of chatbots deleted already', async () => {
    const { url, raw, at } = await legacyDatabase(uri, opened);
    for (const [id, chatbotId] of [['kept', 'bot'], ['gone', 'deleted-bot'], ['ping', null]] as const) {
      const body = JSON.stringify({ id, chatbotId, payload: { customerEmail: 'carla@example.com' } });
      await raw.collection('webhookDeliveries').insertOne({
        _id: id as never, webhookId: 'hook', accountId: 'account', eventType: 'leads.submit', eventKey: id, body,
        status: 'delivered', attempts: 1, nextAttemptAt: at, createdAt: at, updatedAt: at,
      });
      await raw.collection('webhookAttempts').insertOne({ deliveryId: id, webhookId: 'hook', eventType: 'leads.submit', attempt: 1, status: 'delivered', at });
    }
    // More than one batch of the migration's.
    const more = Array.from({ length: 1_200 }, (_, index) => ({
      _id: `more-${index}` as never, webhookId: 'hook', accountId: 'account', eventType: 'ping', eventKey: `ping:${index}`,
      body: JSON.stringify({ chatbotId: 'bot' }), status: 'delivered', attempts: 1, nextAttemptAt: at, createdAt: at, updatedAt: at,
    }));
    await raw.collection('webhookDeliveries').insertMany(more);

    for (let start = 0; start < 2; start += 1) opened.push(await openStore(url.toString()));
    const store = await openStore(url.toString());
    opened.push(store);

    const named = async (collection: string, key: string) =>
      (await raw.collection(collection).find({}, { sort: { [key]: 1 } }).toArray()).map((doc) => [doc[key] as string, doc.chatbotId as string | null]);
    expect(await raw.collection('webhookDeliveries').countDocuments({ chatbotId: 'bot' })).toBe(1 + more.length);
    await raw.collection('webhookDeliveries').deleteMany({ _id: { $in: more.map((doc) => doc._id) } });
    expect(await named('webhookDeliveries', '_id')).toEqual([['gone', 'deleted-bot'], ['kept', 'bot'], ['ping', null]]);
    expect(await named('webhookAttempts', 'deliveryId')).toEqual([['gone', 'deleted-bot'], ['kept', 'bot'], ['ping', null]]);
    await store.repair({ settleMs: 0 });
    expect(await raw.collection('webhookDeliveries').distinct('_id')).toEqual(['kept', 'ping']);
    expect(await raw.collection('webhookAttempts').distinct('deliveryId')).toEqual(['kept', 'ping']);
  });
});
