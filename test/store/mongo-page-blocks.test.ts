import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { atomicWrites, type AtomicWrites } from '../../src/store/mongo/atomic.js';
import { mongoContacts } from '../../src/store/mongo/contacts.js';
import { migrateIndexes } from '../../src/store/mongo/indexes.js';
import { mongoLeads } from '../../src/store/mongo/leads.js';
import { mongoActivityCount } from '../../src/store/mongo/activity.js';
import { mongoModels, type MongoModels } from '../../src/store/mongo/models.js';
import { countUncountedLists, recountPageBlocks } from '../../src/store/mongo/page-block-repair.js';
import type { Contact, ContactRepository, Lead, LeadRepository, TimeRange } from '../../src/store/port.js';

// MongoDB's page blocks (src/store/mongo/page-blocks.ts) with blocks of a few rows, so that a few
// hundred rows cross many block edges: pages stay exact at every depth, a deep page skips at most
// one block, concurrent writers keep every count true, and the repair makes blocks true to the
// rows again.

const BLOCK = 8;
const mongoUri = inject('mongoUri');

/** A deterministic shuffle: the same arrival order on every run. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 7;
  for (let i = out.length - 1; i > 0; i -= 1) {
    seed = (seed * 48_271) % 2_147_483_647;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const newestFirst = (a: Lead, b: Lead) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1);
const oldestFirst = (a: Contact, b: Contact) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);

/** Every page of `size`, read until the first empty one. */
async function allPages<T extends { id: string }>(list: (page: number) => Promise<T[]>): Promise<string[][]> {
  const pages: string[][] = [];
  for (let page = 1; ; page += 1) {
    const ids = (await list(page)).map((item) => item.id);
    pages.push(ids);
    if (ids.length === 0) return pages;
  }
}

// Skipped, with the reason printed by test/support/global-setup.ts, where no mongod can be had.
describe.skipIf(mongoUri === undefined)('mongodb page blocks', () => {
  const uri = mongoUri ?? '';
  let connection: mongoose.Connection;
  let models: MongoModels;
  let leads: LeadRepository;
  let contacts: ContactRepository;
  let writes: AtomicWrites;
  const bot = 'bot-paged';
  const minute = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000);

  const lead = (createdAt: Date, overrides: Partial<Lead> = {}): Lead => ({
    id: randomUUID(),
    chatbotId: bot,
    accountId: 'account',
    name: null,
    email: 'lead@example.com',
    phone: null,
    conversationId: null,
    createdAt,
    ...overrides,
  });
  const contact = (createdAt: Date): Contact => ({
    id: randomUUID(),
    chatbotId: bot,
    externalId: `ext-${randomUUID()}`,
    name: null,
    email: null,
    phonenumber: null,
    paymentAccounts: [],
    customAttributes: {},
    createdAt,
    updatedAt: createdAt,
  });
  const leadPages = (range: TimeRange, size: number) => allPages((page) => leads.list(bot, range, { page, size }));
  const contactPages = (size: number) => allPages((page) => contacts.list(bot, { page, size }));
  const blockCount = () => models.pageBlocks.countDocuments({ chatbotId: bot });
  const recount = (settleMs = 20) => recountPageBlocks(models, writes, { settleMs, now: new Date(), blockRows: BLOCK });
  const stored = <T extends { id: string }>(rows: T[]) => rows.map(({ id, ...fields }) => ({ _id: id, ...fields }));

  beforeEach(async () => {
    connection = await mongoose
      .createConnection(uri, { dbName: `switchboard_blocks_${randomUUID().slice(0, 8)}`, monitorCommands: true })
      .asPromise();
    models = mongoModels(connection);
    for (const model of Object.values(models)) await migrateIndexes(model as never);
    writes = await atomicWrites(connection);
    leads = mongoLeads(models, writes, mongoActivityCount(models), BLOCK);
    contacts = mongoContacts(models, writes, BLOCK);
  });
  afterEach(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('pages leads exactly at every depth and in every range, whatever order they arrived in', async () => {
    // Ties on the minute, arriving shuffled, plus leads upserted for conversations.
    const written = shuffled(Array.from({ length: 150 }, (_, i) => lead(minute(Math.floor(i / 3)))));
    for (const item of written) await leads.insert(item);
    for (const n of [3, 77, 77]) {
      const upserted = { ...lead(minute(n), { name: 'Grace' }), conversationId: `conversation-${n}` };
      written.push(await leads.upsertForConversation(upserted));
    }

    // Read as written (arriving shuffled, most rows land amid those the head block counted), then
    // after the repair divided the blocks that grew.
    const unique = [...new Map(written.map((item) => [item.id, item])).values()];
    const ranges: TimeRange[] = [{}, { from: minute(11), to: minute(37) }, { from: minute(40) }, { to: minute(20) }];
    for (const repaired of [false, true]) {
      if (repaired) {
        await recount();
        expect(await blockCount()).toBeGreaterThan(10);
      }
      for (const range of ranges) {
        const expected = unique
          .filter((item) => (!range.from || item.createdAt >= range.from) && (!range.to || item.createdAt <= range.to))
          .sort(newestFirst)
          .map((item) => item.id);
        const pages = await leadPages(range, 7);
        expect(pages.flat()).toEqual(expected);
        expect(pages.slice(0, -2).every((page) => page.length === 7)).toBe(true);
      }
    }
  });

  it('pages leads exactly after some are erased, their blocks uncounting them', async () => {
    const written = Array.from({ length: 60 }, (_, i) => lead(minute(i)));
    for (const item of written) await leads.insert(item);
    const erased = written.filter((_, i) => i % 4 === 1);
    for (const gone of erased) expect(await leads.delete(bot, gone.id)).toEqual(gone);
    const expected = written
      .filter((item) => !erased.includes(item))
      .sort(newestFirst)
      .map((item) => item.id);
    expect((await leadPages({}, 7)).flat()).toEqual(expected);
    expect((await leadPages({ from: minute(10), to: minute(40) }, 5)).flat()).toEqual(
      expected.filter((id) => {
        const at = written.find((item) => item.id === id)?.createdAt ?? minute(0);
        return at >= minute(10) && at <= minute(40);
      }),
    );
  });

  it('pages and counts contacts exactly across batches, deletions and contacts dated earlier', async () => {
    const batches = [0, 1, 2, 3].map((batch) =>
      Array.from({ length: 40 }, (_, i) => contact(minute((batch * 13 + i) % 50))),
    );
    for (const batch of batches) await contacts.insertMany(batch);
    const doomed = batches.flat().filter((_, i) => i % 5 === 2);
    for (const gone of doomed) await contacts.delete(bot, gone.externalId);

    const expected = batches
      .flat()
      .filter((item) => !doomed.includes(item))
      .sort(oldestFirst)
      .map((item) => item.id);
    expect(await contacts.count(bot)).toBe(expected.length);
    expect((await contactPages(9)).flat()).toEqual(expected);
  });

  it('skips at most one block to reach the deepest page', async () => {
    const skips: number[] = [];
    connection.getClient().on('commandStarted', (event) => {
      const { find, skip } = event.command as { find?: string; skip?: number };
      if (find === 'leads' || find === 'contacts') skips.push(skip ?? 0);
    });
    for (let first = 0; first < 300; first += 50) {
      await contacts.insertMany(Array.from({ length: 50 }, (_, i) => contact(minute(first + i))));
    }
    for (let i = 0; i < 300; i += 1) await leads.insert(lead(minute(i)));

    const lastContacts = await contacts.list(bot, { page: 30, size: 10 });
    const lastLeads = await leads.list(bot, {}, { page: 30, size: 10 });
    expect(lastContacts.map((item) => item.createdAt)).toEqual(Array.from({ length: 10 }, (_, i) => minute(290 + i)));
    expect(lastLeads.map((item) => item.createdAt)).toEqual(Array.from({ length: 10 }, (_, i) => minute(9 - i)));
    expect(skips).toHaveLength(2);
    expect(Math.max(...skips)).toBeLessThan(BLOCK);
  });

  it('keeps every count true while writers add rows at once across block edges', async () => {
    const start = Date.now() - 60_000;
    // Sixteen writers, each taking the next lead as an instance would: times that mostly rise.
    const queue = Array.from({ length: 240 }, (_, i) => lead(new Date(start + i * 10 + (i % 3) * 7)));
    const written = [...queue];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await leads.insert(next);
      }),
    );
    expect(await blockCount()).toBeGreaterThan(5);
    // Each block counts exactly the leads from its first key up to the next block's.
    const blocks = await models.pageBlocks
      .find({ chatbotId: bot, list: 'leads' })
      .sort({ createdAt: 1, rowId: 1 })
      .lean();
    const key = (at: Date, id: string) => `${at.toISOString()} ${id}`;
    const keys = written.map((item) => key(item.createdAt, item.id));
    const starts = blocks.map((block) => key(block.createdAt, block.rowId));
    const within = (i: number) =>
      keys.filter((k) => k >= (starts[i] as string) && (i + 1 === starts.length || k < (starts[i + 1] as string)));
    expect(blocks.map((block) => block.rows)).toEqual(blocks.map((_, i) => within(i).length));
    expect((await leadPages({}, 9)).flat()).toEqual([...written].sort(newestFirst).map((item) => item.id));
  });

  it('counts, at start-up, lists written before page blocks existed: once, however many instances start', async () => {
    const early = Array.from({ length: 45 }, (_, i) => lead(minute(i % 20)));
    const old = Array.from({ length: 45 }, (_, i) => contact(minute(i % 20)));
    await models.leads.insertMany(stored(early));
    await models.contacts.insertMany(stored(old));

    const counts = await Promise.all([countUncountedLists(models, BLOCK), countUncountedLists(models, BLOCK)]);
    expect([...counts].sort()).toEqual([0, 90]);
    expect(await blockCount()).toBeGreaterThan(90 / BLOCK);
    expect((await leadPages({}, 10)).flat()).toEqual([...early].sort(newestFirst).map((item) => item.id));
    expect(await contacts.count(bot)).toBe(45);
    expect((await contactPages(10)).flat()).toEqual([...old].sort(oldestFirst).map((item) => item.id));
    expect(await recount()).toBe(0);
  });

  it('counts, in the repair, rows a list holds without any block', async () => {
    const early = Array.from({ length: 20 }, (_, i) => lead(minute(i)));
    await models.leads.insertMany(stored(early));
    // Read as they were before counting: still exact, by skipping.
    expect((await leadPages({}, 6)).flat()).toEqual([...early].sort(newestFirst).map((item) => item.id));

    expect(await recount()).toBe(20);
    expect((await leadPages({}, 6)).flat()).toEqual([...early].sort(newestFirst).map((item) => item.id));
    expect(await recount()).toBe(0);
  });

  it('recounts what a crash between a row and its count left, and then finds nothing to do', async () => {
    const counted = Array.from({ length: 60 }, (_, i) => contact(minute(i)));
    await contacts.insertMany(counted);
    // Crashes after the row was written, before its count: one dated amid the others, two newer
    // than all, and one deletion.
    const amid = contact(new Date(minute(30).getTime() + 1));
    const newer = [contact(minute(70)), contact(minute(71))];
    await models.contacts.insertMany(stored([amid, ...newer]));
    const [gone] = counted.splice(10, 1) as [Contact];
    await models.contacts.deleteOne({ _id: gone.id });
    const expected = [...counted, amid, ...newer].sort(oldestFirst).map((item) => item.id);
    expect(await contacts.count(bot)).not.toBe(expected.length);

    expect(await recount()).toBe(4);
    expect(await contacts.count(bot)).toBe(expected.length);
    expect((await contactPages(7)).flat()).toEqual(expected);
    expect(await recount()).toBe(0);
  });

  it('recounts on one instance at a time: two repairs at once count a row left uncounted once', async () => {
    await contacts.insertMany(Array.from({ length: 12 }, (_, i) => contact(minute(i))));
    await models.contacts.insertMany(stored([contact(minute(20)), contact(minute(21))]));

    const reports = await Promise.all([recount(), recount()]);
    expect([...reports].sort()).toEqual([0, 2]);
    expect(await contacts.count(bot)).toBe(14);
    expect(await recount()).toBe(0);
  });

  it('divides blocks grown past twice their size by rows dated amid those they counted', async () => {
    const written = shuffled(Array.from({ length: 120 }, (_, i) => lead(minute(i))));
    for (const item of written) await leads.insert(item);
    const largest = async () =>
      (await models.pageBlocks.find({ chatbotId: bot }).lean()).reduce((most, block) => Math.max(most, block.rows), 0);
    expect(await largest()).toBeGreaterThan(2 * BLOCK);

    expect(await recount()).toBeGreaterThan(0);
    expect(await largest()).toBeLessThanOrEqual(2 * BLOCK);
    expect(await blockCount()).toBeGreaterThanOrEqual(120 / BLOCK);
    expect((await leadPages({}, 7)).flat()).toEqual([...written].sort(newestFirst).map((item) => item.id));
    expect(await recount()).toBe(0);
  });

  it('leaves rows newer than the settling time to the writes still counting them', async () => {
    await contacts.insertMany([contact(minute(1))]);
    const justWritten = contact(new Date());
    await models.contacts.insertMany(stored([justWritten]));

    expect(await recount(60_000)).toBe(0);
    expect(await contacts.count(bot)).toBe(1);
  });
});
