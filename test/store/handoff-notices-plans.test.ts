import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDOFF_BY_THREAD_SQL, NEXT_NOTICES_SQL } from '../../src/store/sqlite/handoff-notices.js';
import { plannerDatabase, queryPlan } from '../support/query-plan.js';

// The feed's queries on SQLite are served by its indexes, so an adapter's claim every second and
// a thread's lookup cost the same however many notices were posted before.

describe('sqlite handoff notice query plans', () => {
  let db: Database.Database;

  beforeAll(() => {
    // A busy hub: 20 accounts, nearly every notice posted long ago.
    db = plannerDatabase((rows) => {
      const notice = rows.prepare(
        `INSERT INTO handoff_notices (id, request_id, kind, account_id, chatbot_id, chatbot_name, conversation_id, source,
           platform, workspace_id, channel_id, status, requested_at, thread_channel_id, thread_id, done_at, created_at)
         VALUES (@id, @id, 'requested', @account, 'bot', 'Bot', @conversation, 'API', @platform, @workspace, 'C1', 'pending', 1,
           'C1', @thread, @done, 1)`,
      );
      for (let i = 0; i < 20_000; i += 1) {
        const done = i % 100 === 0 ? null : i;
        const platform = i % 2 ? 'slack' : 'discord';
        notice.run({ id: `n${i}`, account: `account-${i % 20}`, conversation: `c${i}`, platform, workspace: `T${i % 3}`, thread: `${i}.1`, done });
      }
    });
  });
  afterAll(() => db.close());

  const plan = (sql: string, params: Record<string, unknown>) => queryPlan(db, sql, params);

  it.each([
    ['every workspace', null],
    ['some workspaces', JSON.stringify(['T1', 'T2'])],
  ])('claims for %s through the undone notices of the account and platform, each checked against its conversation', (_, workspaceIds) => {
    const steps = plan(NEXT_NOTICES_SQL, { accountId: 'account-7', platform: 'slack', workspaceIds, replies: 1, now: 5, limit: 10 });
    expect(steps).toMatch(/SEARCH n USING INDEX handoff_notices_undone \(account_id=\? AND platform=\?\)/);
    expect(steps).toMatch(/SEARCH e USING INDEX handoff_notices_of_conversation \(chatbot_id=\? AND conversation_id=\? AND seq<\?\)/);
    // Only the list of workspaces asked is read whole.
    expect(steps).not.toMatch(/SCAN (?!json_each)/);
  });

  it('finds a thread through handoff_notices_by_thread', () => {
    const steps = plan(HANDOFF_BY_THREAD_SQL, { accountId: 'account-7', platform: 'slack', channelId: 'C1', threadId: '7.1' });
    expect(steps).toMatch(/SEARCH r USING INDEX handoff_notices_by_thread \(platform=\? AND thread_channel_id=\? AND thread_id=\?\)/);
    expect(steps).not.toMatch(/SCAN/);
  });
});
