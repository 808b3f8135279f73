import { randomUUID } from 'node:crypto';
import type { Contact, Lead } from '../src/store/port.js';
import { startBenchHub, type BenchHub } from './hub.js';
import { load, median } from './load.js';
import type { BenchOptions, Figure, Section } from './section.js';

// The first against the last page (size 100) of get-leads and of a chatbot's contacts, with
// 10k, 100k and 1M rows (--quick: 10k and 30k), each size on its own chatbot, on SQLite and, when
// MONGODB_URI names a server, on MongoDB. Rows are seeded straight through the store into the
// hub's database; latencies are medians at one connection.

const PAGE_SIZE = 100;
const BATCH = 1000;
/** Leads written at once while seeding: a network store's round trips overlap. */
const SEEDING_WRITES = 32;

async function seedLeads(hub: BenchHub, chatbotId: string, rows: number): Promise<void> {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const insert = (i: number) => {
    const lead: Lead = {
      id: randomUUID(),
      chatbotId,
      accountId: hub.account.id,
      name: `Lead ${i}`,
      email: `lead${i}@example.com`,
      phone: null,
      conversationId: null,
      createdAt: new Date(start + i * 1000),
    };
    return hub.store.leads.insert(lead);
  };
  for (let first = 0; first < rows; first += SEEDING_WRITES) {
    await Promise.all(Array.from({ length: Math.min(SEEDING_WRITES, rows - first) }, (_, i) => insert(first + i)));
  }
}

async function seedContacts(hub: BenchHub, chatbotId: string, rows: number): Promise<void> {
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (let first = 0; first < rows; first += BATCH) {
    const batch: Contact[] = [];
    for (let i = first; i < Math.min(rows, first + BATCH); i += 1) {
      const at = new Date(start + i * 1000);
      batch.push({
        id: randomUUID(),
        chatbotId,
        externalId: `contact-${i}`,
        name: `Contact ${i}`,
        email: `contact${i}@example.com`,
        phonenumber: null,
        paymentAccounts: [],
        customAttributes: {},
        createdAt: at,
        updatedAt: at,
      });
    }
    await hub.store.contacts.insertMany(batch);
  }
}

async function run(options: BenchOptions): Promise<Figure[]> {
  const figures = await onEngine(options, 'SQLite');
  const mongodbUri = process.env.MONGODB_URI;
  if (mongodbUri) figures.push(...(await onEngine(options, 'MongoDB', mongodbUri)));
  return figures;
}

async function onEngine({ quick }: BenchOptions, engine: string, mongodbUri?: string): Promise<Figure[]> {
  const sizes = quick ? [10_000, 30_000] : [10_000, 100_000, 1_000_000];
  const seconds = quick ? 0.5 : 3;
  const hub = await startBenchHub(mongodbUri);
  const figures: Figure[] = [];
  const latency = async (path: string) => {
    const request = hub.get(path);
    await load(request, { connections: 1, seconds: seconds / 2 });
    return median((await load(request, { connections: 1, seconds })).latencies);
  };
  try {
    for (const rows of sizes) {
      const chatbotId = await hub.createChatbot(`Paged ${rows}`, 'Rows.');
      await seedLeads(hub, chatbotId, rows);
      await seedContacts(hub, chatbotId, rows);
      const last = Math.ceil(rows / PAGE_SIZE);
      const label = rows.toLocaleString('en');
      for (const [name, page] of [
        ['get-leads', (n: number) => `/get-leads?chatbotId=${chatbotId}&size=${PAGE_SIZE}&page=${n}`],
        ['contacts', (n: number) => `/chatbots/${chatbotId}/contacts?size=${PAGE_SIZE}&page=${n}`],
      ] as const) {
        figures.push({
          name: `${engine} ${name}, last page of ${label} rows`,
          value: await latency(page(last)),
          unit: 'ms',
          baseline: `first page of ${label} rows`,
          baselineValue: await latency(page(1)),
          goal: { atMost: 3 },
        });
      }
    }
  } finally {
    await hub.dispose();
  }
  return figures;
}

export const pagingSection: Section = { name: 'paging: pages of 100, first against last', run };
