import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../src/store/sqlite/migrations.js';

// Migrations applied to a database that already holds data, as an upgrade meets it.

describe('sqlite migrations of existing data', () => {
  it('ranks the leads already stored, per chatbot, in (created_at, id) order', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = OFF'); // leads without owners: only the ranking is under test
    const ranking = MIGRATIONS.findIndex((sql) => sql.includes('leads_by_chatbot_position'));
    expect(ranking).toBeGreaterThan(0);
    for (const sql of MIGRATIONS.slice(0, ranking)) db.exec(sql);
    db.pragma(`user_version = ${ranking}`);
    const insert = db.prepare('INSERT INTO leads (id, chatbot_id, account_id, created_at) VALUES (?, ?, ?, ?)');
    for (const [id, chatbotId, at] of [
      ['c', 'bot-a', 20],
      ['a', 'bot-a', 30],
      ['b', 'bot-a', 20],
      ['z', 'bot-b', 5],
      ['y', 'bot-b', 1],
    ] as const) {
      insert.run(id, chatbotId, 'account', at);
    }

    migrate(db);

    const ranked = db.prepare('SELECT chatbot_id, id, position FROM leads ORDER BY chatbot_id, position').all();
    expect(ranked).toEqual([
      { chatbot_id: 'bot-a', id: 'b', position: 1 },
      { chatbot_id: 'bot-a', id: 'c', position: 2 },
      { chatbot_id: 'bot-a', id: 'a', position: 3 },
      { chatbot_id: 'bot-b', id: 'y', position: 1 },
      { chatbot_id: 'bot-b', id: 'z', position: 2 },
    ]);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });
});
