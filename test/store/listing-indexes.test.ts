import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { conversationPageQuery } from '../../src/store/mongo/conversations.js';
import { leadPageQuery, mongoLeads } from '../../src/store/mongo/leads.js';
import { mongoActivityCount } from '../../src/store/mongo/activity.js';
import { atomicWrites } from '../../src/store/mongo/atomic.js';
import { mongoModels, type MongoModels } from '../../src/store/mongo/models.js';
import { pageBlocks } from '../../src/store/mongo/page-blocks.js';
import { CONVERSATION_SOURCES } from '../../src/store/conversation-sources.js';
import { LIST_CONVERSATIONS_SQL, LIST_HANDOFF_CONVERSATIONS_SQL } from '../../src/store/sqlite/conversations.js';
import { LIST_LEADS_SQL } from '../../src/store/sqlite/leads.js';
import { LEADS_OF_CONVERSATIONS_SQL } from '../../src/store/sqlite/lead-rows.js';
import type { Lead } from '../../src/store/port.js';
import { plannerDatabase, queryPlan } from '../support/query-plan.js';

// The listing queries must be served by the (chatbot, created time) indexes, so their cost follows
// the page asked for, not the leads of other chatbots or outside the range.

const DAY = 24 * 60 * 60 * 1000;
/** Leads per page block (page-blocks.ts) on MongoDB: small, so a few leads make several blocks. */
const BLOCK = 4;

describe('sqlite listing query plans', () => {
  let db: Database.Database;

  beforeAll(() => {
    // Real statistics (20 chatbots, 1000 rows each) for the planner, as a busy database would have.
    db = plannerDatabase((rows) => {
      const lead = rows.prepare('INSERT INTO leads (id, chatbot_id, account_id, email, created_at) VALUES (?, ?, ?, ?, ?)');
      const conversation = rows.prepare(
        `INSERT INTO conversations (chatbot_id, id, account_id, source, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      );
      const handoff = rows.prepare(
        `INSERT INTO conversation_handoffs (chatbot_id, conversation_id, account_id, status, requested_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      );
      for (let i = 0; i < 20_000; i += 1) {
        const [chatbotId, at] = [`bot-${i % 20}`, Date.UTC(2026, 0, 1) + i * 60_000];
        lead.run(`lead-${i}`, chatbotId, 'account', 'x@example.com', at);
        conversation.run(chatbotId, `conv-${i}`, 'account', i % 2 ? 'API' : 'Slack', at, at);
        // One in ten handed off, nearly all of those long closed.
        if (i % 10 === 3) handoff.run(chatbotId, `conv-${i}`, 'account', i % 500 === 3 ? 'pending' : 'resolved', at, at);
      }
    });
  });
  afterAll(() => db.close());

  const plan = (sql: string, params: Record<string, unknown>) => queryPlan(db, sql, params);
  const window = { chatbotId: 'bot-7', from: 0, to: Date.now(), limit: 20, offset: 40 };

  it('seeks a page of leads, at any depth, through leads_by_chatbot_position', () => {
    const steps = plan(LIST_LEADS_SQL, { chatbotId: 'bot-7', lowest: 1, highest: 960, limit: 20 });
    expect(steps).toMatch(/SEARCH leads USING INDEX leads_by_chatbot_position \(chatbot_id=\? AND position>\? AND position<\?\)/);
    expect(steps).not.toMatch(/SCAN leads/);
    expect(steps).not.toMatch(/TEMP B-TREE/);
  });

  it('finds the leads of a page of conversations through the one-lead-per-conversation index, one seek each', () => {
    const steps = plan(LEADS_OF_CONVERSATIONS_SQL, { chatbotId: 'bot-7', conversationIds: JSON.stringify(['conv-7', 'conv-27']) });
    expect(steps).toMatch(/SEARCH leads USING INDEX sqlite_autoindex_leads_\d \(chatbot_id=\? AND conversation_id=\?\)/);
    expect(steps).not.toMatch(/SCAN leads/);
  });

  it('finds and orders conversations through conversations_by_chatbot_time', () => {
    // Two sources asked for; the query's other source slots repeat one of them.
    const sources = Object.fromEntries(CONVERSATION_SOURCES.map((_, slot) => [`s${slot}`, slot === 1 ? 'Slack' : 'API']));
    const steps = plan(LIST_CONVERSATIONS_SQL, { ...window, ...sources });
    expect(steps).toMatch(/SEARCH conversations USING (COVERING )?INDEX conversations_by_chatbot_time \(chatbot_id=\? AND created_at>\? AND created_at<\?\)/);
    expect(steps).not.toMatch(/SCAN conversations/);
    expect(steps).not.toMatch(/TEMP B-TREE/);
  });

  it('finds the conversations of an open handoff through their handoffs, never walking the chatbot’s conversations', () => {
    const sources = Object.fromEntries(CONVERSATION_SOURCES.map((_, slot) => [`s${slot}`, 'API']));
    const steps = plan(LIST_HANDOFF_CONVERSATIONS_SQL, { ...window, ...sources, statuses: JSON.stringify(['pending', 'active']) });
    expect(steps).toMatch(/SEARCH h USING (COVERING )?INDEX conversation_handoffs_by_status \(chatbot_id=\? AND status=\?\)/);
    expect(steps).toMatch(/SEARCH c USING INDEX sqlite_autoindex_conversations_1 \(chatbot_id=\? AND id=\?\)/);
    expect(steps).not.toMatch(/SCAN (conversations|c|h)\b/);
  });
});

const mongoUri = inject('mongoUri');
const planReader = mongoUri === undefined ? undefined : await explainSupport(mongoUri);

// Runs where a mongod can be had (see test/support/global-setup.ts, which prints why not) that
// explains its plans: a wire-protocol emulator may answer every query but `explain`.
describe.each(planReader === undefined ? [] : [planReader])('mongodb listing query plans', (uri) => {
  let connection: mongoose.Connection;
  let models: MongoModels;
  const bot = 'target-bot';
  const from = new Date('2026-03-10T00:00:00.000Z');
  const to = new Date(from.getTime() + 10 * DAY - 1);

  beforeAll(async () => {
    connection = await mongoose.createConnection(uri, { dbName: `switchboard_plan_${randomUUID().slice(0, 8)}` }).asPromise();
    models = mongoModels(connection);
    for (const model of Object.values(models)) await model.createIndexes();
    const leads = mongoLeads(models, await atomicWrites(connection), mongoActivityCount(models), BLOCK);
    const lead = (chatbotId: string, createdAt: Date): Lead => ({
      id: randomUUID(),
      chatbotId,
      accountId: 'account',
      name: null,
      email: 'x@example.com',
      phone: null,
      conversationId: null,
      createdAt,
    });
    // 30 days of the target chatbot (10 inside the range) among 300 leads of another.
    for (let day = 0; day < 30; day += 1) await leads.insert(lead(bot, new Date(from.getTime() + (day - 10) * DAY)));
    for (let i = 0; i < 300; i += 1) await leads.insert(lead('other-bot', new Date(from.getTime() + (i % 30) * DAY)));
    // 200 of the target chatbot's conversations, one in forty waiting for the team, and one in ten long handed back.
    const handoff = (index: number) => {
      const status = index % 40 === 0 ? 'pending' : index % 10 === 0 ? 'resolved' : undefined;
      return status && { status, requestedAt: from, takenBy: null, dueAt: null, updatedAt: from, claimedBy: null, leaseUntil: null };
    };
    await models.conversations.insertMany(
      Array.from({ length: 200 }, (_, index) => ({
        _id: `${bot}:c${index}`,
        chatbotId: bot,
        conversationId: `c${index}`,
        accountId: 'account',
        source: 'API',
        contactId: null,
        messageCount: 0,
        ...(handoff(index) && { handoff: handoff(index) }),
        createdAt: new Date(from.getTime() + index * 60_000),
        updatedAt: new Date(from.getTime() + index * 60_000),
      })),
    );
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('reads only the keys and documents of the page asked for, from the block it starts in', async () => {
    const page = { page: 3, size: 3 };
    const start = await pageBlocks(models, 'leads', BLOCK).newestFirst(bot, { from, to }, (page.page - 1) * page.size);
    expect(start.edge).toBeDefined();
    expect(start.skip).toBeLessThan(BLOCK);
    const explained = (await leadPageQuery(models, bot, { from, to }, start, page.size).explain('executionStats')) as unknown;
    const stages = collect(explained, 'stage');
    expect(stages).toContain('IXSCAN');
    expect(stages).not.toContain('COLLSCAN');
    expect(stages).not.toContain('SORT');
    expect(collect(explained, 'indexName')).toContain('chatbotId_1_createdAt_-1__id_-1');
    const stats = (explained as { executionStats: Record<string, number> }).executionStats;
    expect(stats.nReturned).toBe(page.size);
    expect(stats.totalDocsExamined).toBeLessThanOrEqual(page.size + start.skip);
    expect(stats.totalKeysExamined).toBeLessThanOrEqual(page.size + start.skip + 1);
  });

  it('serves a conversation page from its index too', async () => {
    const explained = (await conversationPageQuery(models, bot, { from, to }, { page: 1, size: 5 }).explain(
      'executionStats',
    )) as unknown;
    expect(collect(explained, 'stage')).not.toContain('COLLSCAN');
    expect(collect(explained, 'indexName')).toContain('chatbotId_1_createdAt_-1__id_-1');
  });

  it('serves a page of the conversations of open handoffs from the handoff status index, each status in order', async () => {
    const query = conversationPageQuery(models, bot, { handoffStatuses: ['pending', 'active'] }, { page: 1, size: 5 });
    const explained = (await query.explain('executionStats')) as unknown;
    const stages = collect(explained, 'stage');
    expect(stages).not.toContain('COLLSCAN');
    expect(stages).not.toContain('SORT');
    expect(collect(explained, 'indexName')).toContain('chatbotId_1_handoff.status_1_createdAt_-1__id_-1');
    const stats = (explained as { executionStats: Record<string, number> }).executionStats;
    expect(stats.nReturned).toBe(5);
    expect(stats.totalDocsExamined).toBe(5);
  });
});

/** Every value of `key` anywhere in an explain document (its shape differs between server versions). */
function collect(value: unknown, key: string): unknown[] {
  if (Array.isArray(value)) return value.flatMap((item) => collect(item, key));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, inner]) => (name === key ? [inner] : collect(inner, key)));
}

/** The URI when its server explains query plans; otherwise undefined, with the reason printed once. */
async function explainSupport(uri: string): Promise<string | undefined> {
  const connection = await mongoose.createConnection(uri).asPromise();
  try {
    await connection.db?.command({ explain: { find: 'probe' } });
    return uri;
  } catch (error) {
    console.warn(`[switchboard] MongoDB query-plan tests skipped: the server cannot explain (${(error as Error).message}).`);
    return undefined;
  } finally {
    await connection.close();
  }
}
