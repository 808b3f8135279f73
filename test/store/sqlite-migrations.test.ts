import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { sqliteActivityCount } from '../../src/store/sqlite/activity.js';
import { sqliteConversationAppend } from '../../src/store/sqlite/conversation-append.js';
import { sqliteConversations } from '../../src/store/sqlite/conversations.js';
import { migrate, MIGRATIONS } from '../../src/store/sqlite/migrations.js';

// Migrations applied to a database that already holds data, as an upgrade meets it.

/**
 * A database as it stood just before the migration that mentions `marker`. Rows without owners
 * are allowed (foreign keys off): only what the migration does to them is under test.
 */
function databaseBefore(marker: string, filename = ':memory:'): Database.Database {
  const db = new Database(filename);
  db.pragma('foreign_keys = OFF');
  const migration = MIGRATIONS.findIndex((sql) => sql.includes(marker));
  for (const sql of MIGRATIONS.slice(0, migration)) db.exec(sql);
  db.pragma(`user_version = ${migration}`);
  return db;
}

describe('sqlite migrations of existing data', () => {
  it('ranks the leads already stored, per chatbot, in (created_at, id) order', () => {
    const db = databaseBefore('leads_by_chatbot_position');
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

  it('ranks the contacts already stored and counts them per block of positions', () => {
    const db = databaseBefore('contact_buckets');
    const insert = db.prepare(
      `INSERT INTO contacts (id, chatbot_id, external_id, payment_accounts, custom_attributes, created_at, updated_at)
       VALUES (?, ?, ?, '[]', '{}', ?, ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < 1500; i += 1) insert.run(`c-${String(1499 - i).padStart(4, '0')}`, 'bot-a', `e-${i}`, 7, 7);
      insert.run('other', 'bot-b', 'e-other', 1, 1);
    })();

    migrate(db);

    const first = db.prepare("SELECT id, position FROM contacts WHERE chatbot_id = 'bot-a' ORDER BY position LIMIT 2").all();
    expect(first).toEqual([
      { id: 'c-0000', position: 1 },
      { id: 'c-0001', position: 2 },
    ]);
    expect(db.prepare('SELECT chatbot_id, bucket, live FROM contact_buckets ORDER BY chatbot_id, bucket').all()).toEqual([
      { chatbot_id: 'bot-a', bucket: 0, live: 1023 },
      { chatbot_id: 'bot-a', bucket: 1, live: 477 },
      { chatbot_id: 'bot-b', bucket: 0, live: 1 },
    ]);
    db.close();
  });

  it('keeps trained material under its version, as chunks and a source part', () => {
    const db = databaseBefore('training_stages');
    db.prepare("INSERT INTO training_sources (chatbot_id, source_text, version) VALUES ('bot-a', 'One. Two.', 'v7')").run();
    const chunk = db.prepare("INSERT INTO training_chunks (chatbot_id, seq, text) VALUES ('bot-a', ?, ?)");
    chunk.run(1, 'Two.');
    chunk.run(0, 'One.');
    db.prepare("INSERT INTO retrieval_indexes (chatbot_id, version, data) VALUES ('bot-a', 'v7', x'')").run();
    db.prepare("INSERT INTO retrieval_index_parts (chatbot_id, part, data) VALUES ('bot-a', 0, x'0102')").run();

    migrate(db);

    // Pages of one chunk each since a later migration.
    expect(db.prepare('SELECT chatbot_id, version, first_seq AS seq, CAST(text AS TEXT) AS text FROM training_pages ORDER BY first_seq').all()).toEqual([
      { chatbot_id: 'bot-a', version: 'v7', seq: 0, text: 'One.' },
      { chatbot_id: 'bot-a', version: 'v7', seq: 1, text: 'Two.' },
    ]);
    expect(db.prepare('SELECT chatbot_id, version, part, text FROM training_source_parts').all()).toEqual([
      { chatbot_id: 'bot-a', version: 'v7', part: 0, text: 'One. Two.' },
    ]);
    expect(db.prepare('SELECT chatbot_id, version FROM training_sources').all()).toEqual([{ chatbot_id: 'bot-a', version: 'v7' }]);
    // Indexes are rebuilt from the material on demand.
    expect(db.prepare('SELECT COUNT(*) FROM retrieval_index_parts').pluck().get()).toBe(0);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });

  it('reads the chunks stored a row each before pages as they were, and deletes them when displaced', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-pages-'));
    const filename = join(dir, 'hub.db');
    const db = databaseBefore('CREATE TABLE training_pages', filename);
    db.prepare(
      `INSERT INTO chatbots (id, account_id, name, status, settings, created_at, updated_at) VALUES ('bot-a', 'account', 'Bot', 'ready', '{}', 1, 1)`,
    ).run();
    db.prepare("INSERT INTO training_sources (chatbot_id, version) VALUES ('bot-a', 'v3')").run();
    // More chunks than a step reads of pages: migrated pages hold one each.
    const source = { id: 'src', title: 'Handbook', type: 'text' };
    const chunks = Array.from({ length: 2_100 }, (_, seq) => ({ seq, text: seq % 7 === 0 ? `${seq} 😀 é` : `${seq}`, ...(seq < 2_000 ? { source } : {}) }));
    const chunk = db.prepare('INSERT INTO training_chunks (chatbot_id, version, seq, text, source) VALUES (?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (const { seq, text, source: of } of chunks) chunk.run('bot-a', 'v3', seq, text, of ? JSON.stringify(of) : null);
      chunk.run('bot-a', 'v2', 0, 'Displaced.', null);
    })();
    db.close();

    const store = await openStore(`sqlite:${filename}`);
    try {
      expect(await store.training.material('bot-a')).toEqual({ version: 'v3', chunks });
      await store.training.replace('bot-a', { chunks: ['New.'] });
      expect((await store.training.material('bot-a')).chunks).toEqual([{ seq: 0, text: 'New.' }]);
      expect(await store.repair()).toMatchObject({ orphans: 1 });
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('copies the listed settings of the chatbots already stored into their own columns', () => {
    const db = databaseBefore('ADD COLUMN visibility');
    const settings = { model: 'vendor3-2.5-pro', instructions: 'Be brief. Say “thanks”.', visibility: 'public', temp: 0.2 };
    db.prepare(
      `INSERT INTO chatbots (id, account_id, name, status, settings, created_at, updated_at)
       VALUES ('bot-a', 'account', 'Helper', 'ready', ?, 1, 1)`,
    ).run(JSON.stringify(settings));

    migrate(db);

    expect(db.prepare('SELECT model, instructions, visibility, settings FROM chatbots').get()).toEqual({
      model: 'vendor3-2.5-pro',
      instructions: 'Be brief. Say “thanks”.',
      visibility: 'public',
      settings: JSON.stringify(settings),
    });
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });

  it('turns each chatbot’s stored source text into its API text source, tagging its chunks', () => {
    const db = databaseBefore('CREATE TABLE sources');
    const chatbot = db.prepare(
      `INSERT INTO chatbots (id, account_id, name, status, settings, created_at, updated_at) VALUES (?, 'account', 'Bot', 'ready', '{}', 5, 9)`,
    );
    chatbot.run('bot-a');
    chatbot.run('bot-empty');
    db.prepare("INSERT INTO training_sources (chatbot_id, version) VALUES ('bot-a', 'v2'), ('bot-empty', 'v1')").run();
    const part = db.prepare('INSERT INTO training_source_parts (chatbot_id, version, part, text) VALUES (?, ?, ?, ?)');
    part.run('bot-a', 'v2', 1, 'Two.');
    part.run('bot-a', 'v2', 0, 'One. ');
    part.run('bot-a', 'v1', 0, 'Displaced.');
    part.run('bot-empty', 'v1', 0, '');
    db.prepare("INSERT INTO training_chunks (chatbot_id, version, seq, text) VALUES ('bot-a', 'v2', 0, 'One. Two.')").run();

    migrate(db);

    expect(db.prepare('SELECT id, chatbot_id, type, title, status, chars, created_at, updated_at FROM sources').all()).toEqual([
      { id: 'api_bot-a', chatbot_id: 'bot-a', type: 'text', title: 'API text', status: 'ready', chars: 9, created_at: 5, updated_at: 9 },
    ]);
    // Kept in parts since a later migration.
    expect(db.prepare('SELECT source_id, part, text FROM source_text_parts').all()).toEqual([{ source_id: 'api_bot-a', part: 0, text: 'One. Two.' }]);
    expect(JSON.parse(db.prepare('SELECT source FROM training_pages').pluck().get() as string)).toEqual({
      id: 'api_bot-a',
      title: 'API text',
      type: 'text',
    });
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });

  it('moves each source’s text into parts of about a million characters under its current version, and drops the column', () => {
    const db = databaseBefore('CREATE TABLE source_text_parts');
    const source = db.prepare(
      `INSERT INTO sources (id, chatbot_id, type, title, status, chars, text, created_at, updated_at) VALUES (?, 'bot', 'text', 'T', 'ready', ?, ?, 1, 1)`,
    );
    // Characters, not UTF-16 code units: the astral one at the first boundary stays whole.
    const long = `${'a'.repeat(1024 * 1024 - 1)}😀${'b'.repeat(1024 * 1024)}c`;
    source.run('long', long.length, long);
    source.run('short', 6, 'Hello.');
    source.run('empty', 0, '');

    migrate(db);

    const parts = db.prepare<[string], { version: string; part: number; text: string }>(
      'SELECT version, part, text FROM source_text_parts WHERE source_id = ? ORDER BY part',
    );
    const versions = db.prepare('SELECT id, text_version FROM sources ORDER BY id').all();
    expect(versions).toEqual([
      { id: 'empty', text_version: null },
      { id: 'long', text_version: 'migrated' },
      { id: 'short', text_version: 'migrated' },
    ]);
    const longParts = parts.all('long');
    expect(longParts.map((part) => [part.version, part.part, part.text.length])).toEqual([
      ['migrated', 0, 1024 * 1024 + 1],
      ['migrated', 1, 1024 * 1024],
      ['migrated', 2, 1],
    ]);
    expect(longParts.map((part) => part.text).join('')).toBe(long);
    expect(parts.all('short')).toEqual([{ version: 'migrated', part: 0, text: 'Hello.' }]);
    expect(parts.all('empty')).toEqual([]);
    expect(db.prepare("SELECT COUNT(*) FROM pragma_table_info('sources') WHERE name = 'text'").pluck().get()).toBe(0);
    db.close();
  });

  it('moves each file’s bytes into parts of a megabyte under a version its source names, and drops the files table', () => {
    const db = databaseBefore('CREATE TABLE source_file_parts');
    const source = db.prepare(
      `INSERT INTO sources (id, chatbot_id, type, title, status, chars, created_at, updated_at) VALUES (?, 'bot', ?, 'T', 'queued', 0, 1, 1)`,
    );
    const file = db.prepare('INSERT INTO source_files (source_id, data) VALUES (?, ?)');
    // Each byte tells its offset apart from the same offset of another part.
    const long = Buffer.from(Array.from({ length: 2 * 1024 * 1024 + 3 }, (_, i) => (i * 7 + Math.floor(i / (1024 * 1024))) % 251));
    for (const [id, bytes] of [
      ['long', long],
      ['short', Buffer.from('%PDF')],
      ['empty', Buffer.alloc(0)],
    ] as const) {
      source.run(id, 'file');
      file.run(id, bytes);
    }
    source.run('text', 'text');

    migrate(db);

    const parts = db.prepare<[string], { version: string; part: number; data: Buffer }>(
      'SELECT version, part, data FROM source_file_parts WHERE source_id = ? ORDER BY part',
    );
    expect(db.prepare('SELECT id, file_version FROM sources ORDER BY id').all()).toEqual([
      { id: 'empty', file_version: 'migrated' },
      { id: 'long', file_version: 'migrated' },
      { id: 'short', file_version: 'migrated' },
      { id: 'text', file_version: null },
    ]);
    const longParts = parts.all('long');
    expect(longParts.map((part) => [part.version, part.part, part.data.length])).toEqual([
      ['migrated', 0, 1024 * 1024],
      ['migrated', 1, 1024 * 1024],
      ['migrated', 2, 3],
    ]);
    expect(Buffer.concat(longParts.map((part) => part.data)).equals(long)).toBe(true);
    expect(parts.all('short')).toEqual([{ version: 'migrated', part: 0, data: Buffer.from('%PDF') }]);
    expect(parts.all('empty')).toEqual([]);
    expect(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'source_files'").pluck().get()).toBe(0);
    db.close();
  });

  it('drops the chunks kept beside the material, leaving the material without runs', () => {
    const db = databaseBefore('ADD COLUMN runs');
    db.prepare(`INSERT INTO sources (id, chatbot_id, type, title, status, chars, created_at, updated_at, chunked_revision) VALUES ('s', 'bot', 'text', 'T', 'ready', 3, 1, 1, 0)`).run();
    db.prepare(`INSERT INTO source_chunks (source_id, revision, seq, text, ref) VALUES ('s', 0, 0, 'One.', '{}')`).run();
    db.prepare(`INSERT INTO training_sources (chatbot_id, version) VALUES ('bot', 'v1')`).run();

    migrate(db);

    expect(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'source_chunks'").pluck().get()).toBe(0);
    expect(db.prepare('SELECT * FROM sources').get()).not.toHaveProperty('chunked_revision');
    // Created before any revision a training takes.
    expect(db.prepare('SELECT created_revision FROM sources').pluck().get()).toBe(0);
    expect(db.prepare('SELECT chatbot_id, version, runs FROM training_sources').all()).toEqual([{ chatbot_id: 'bot', version: 'v1', runs: null }]);
    db.close();
  });

  it('leaves the messages already stored unmarked, to be read by their text; new ones are marked, and only with a kind', async () => {
    const db = databaseBefore('ADD COLUMN kind');
    db.prepare("INSERT INTO conversations (chatbot_id, id, account_id, source, created_at, updated_at) VALUES ('bot', 'c', 'account', 'API', 1, 1)").run();
    const message = db.prepare("INSERT INTO conversation_messages (chatbot_id, conversation_id, role, content, created_at, author_name) VALUES ('bot', 'c', ?, ?, 1, ?)");
    message.run('user', 'Can I talk to a person?', null);
    message.run('assistant', 'Hold on, please.', null);
    message.run('assistant', 'Ada here.', 'Ada');

    migrate(db);

    const count = sqliteActivityCount(db);
    const conversations = sqliteConversations(db, count, sqliteConversationAppend(db, count));
    const stored = (await conversations.find('bot', 'c'))?.messages ?? [];
    expect(stored.map(({ role, content, author }) => ({ role, content, ...(author && { author }) }))).toEqual([
      { role: 'user', content: 'Can I talk to a person?' },
      { role: 'assistant', content: 'Hold on, please.' },
      { role: 'assistant', content: 'Ada here.', author: { type: 'human', name: 'Ada' } },
    ]);
    expect(stored.some((item) => 'kind' in item)).toBe(false);
    const at = new Date(2);
    const said = { role: 'assistant' as const, content: 'Nine to five.', createdAt: at, kind: 'answer' as const };
    await conversations.append({ chatbotId: 'bot', accountId: 'account', id: 'c', source: 'API', contactId: null, messages: [said], at });
    expect((await conversations.find('bot', 'c'))?.messages.at(-1)).toEqual({ ...said, id: expect.any(String) });
    expect(() => db.prepare("UPDATE conversation_messages SET kind = 'question'").run()).toThrow(/CHECK constraint/);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });

  it('leaves the conversations already stored unnamed, as the handoff events enqueued before name them; new ones are named', async () => {
    const db = databaseBefore('ADD COLUMN incarnation');
    db.prepare("INSERT INTO conversations (chatbot_id, id, account_id, source, created_at, updated_at) VALUES ('bot', 'c', 'account', 'API', 1, 1)").run();

    migrate(db);

    const count = sqliteActivityCount(db);
    const append = sqliteConversationAppend(db, count);
    const conversations = sqliteConversations(db, count, append);
    expect(await conversations.incarnation('bot', 'c')).toBeNull();
    append({ chatbotId: 'bot', accountId: 'account', id: 'c', source: 'API', contactId: null, at: new Date(2), messages: [] });
    expect(await conversations.incarnation('bot', 'c')).toBeNull();
    append({ chatbotId: 'bot', accountId: 'account', id: 'd', source: 'API', contactId: null, at: new Date(2), messages: [] });
    expect(await conversations.incarnation('bot', 'd')).toMatch(/^[0-9a-f]{24}$/);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });

  it('moves each unanswered group’s latest examples and its first into its own row, then drops the examples table', () => {
    const db = databaseBefore('DROP TABLE unanswered_examples');
    const group = db.prepare(
      `INSERT INTO unanswered_groups (id, chatbot_id, account_id, question, terms, terms_key, count, first_asked_at, last_asked_at, status)
       VALUES (?, 'bot', 'account', 'q', '[]', ?, ?, 1, 9, 'open')`,
    );
    group.run('many', 'many', 7);
    group.run('one', 'one', 1);
    const example = db.prepare('INSERT INTO unanswered_examples (group_id, conversation_id, message_id, source, asked_at) VALUES (?, ?, ?, ?, ?)');
    for (let at = 1; at <= 7; at += 1) example.run('many', `c${at}`, null, 'API', at);
    example.run('one', null, 'm1', 'Slack', 3);

    migrate(db);

    const row = (id: string) => db.prepare<[string], { examples: string; opening: string }>('SELECT examples, opening FROM unanswered_groups WHERE id = ?').get(id);
    const many = row('many');
    expect((JSON.parse(many?.examples ?? '') as { askedAt: number }[]).map((item) => item.askedAt)).toEqual([3, 4, 5, 6, 7]);
    expect(JSON.parse(many?.opening ?? '')).toEqual({ conversationId: 'c1', messageId: null, source: 'API', askedAt: 1 });
    expect(JSON.parse(row('one')?.examples ?? '')).toEqual([{ conversationId: null, messageId: 'm1', source: 'Slack', askedAt: 3 }]);
    expect(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'unanswered_examples'").pluck().get()).toBe(0);
    db.close();
  });

  it('names each webhook delivery’s chatbot from its body, dropping those of chatbots deleted already, and a deletion then takes them along', () => {
    const db = databaseBefore('webhook_deliveries_by_chatbot');
    db.prepare("INSERT INTO accounts (id, name, messages_per_month, max_chatbots, created_at) VALUES ('account', 'acme', 10, 10, 1)").run();
    db.prepare("INSERT INTO chatbots (id, account_id, name, status, settings, created_at, updated_at) VALUES ('bot', 'account', 'Bot', 'ready', '{}', 1, 1)").run();
    db.prepare("INSERT INTO webhooks (id, account_id, url, events, secret, enabled, created_at, updated_at) VALUES ('hook', 'account', 'https://x.example', '[]', 's', 1, 1, 1)").run();
    const delivery = db.prepare(
      `INSERT INTO webhook_deliveries (id, webhook_id, account_id, event_type, event_key, body, status, attempts, next_attempt_at, created_at, updated_at)
       VALUES (?, 'hook', 'account', 'leads.submit', ?, ?, 'delivered', 1, 1, 1, 1)`,
    );
    for (const [id, chatbotId] of [['kept', 'bot'], ['gone', 'deleted-bot'], ['ping', null]] as const) {
      delivery.run(id, id, JSON.stringify({ id, chatbotId, payload: {} }));
      db.prepare("INSERT INTO webhook_attempts (delivery_id, attempt, webhook_id, event_type, status, at) VALUES (?, 1, 'hook', 'leads.submit', 'delivered', 1)").run(id);
    }

    migrate(db);
    db.pragma('foreign_keys = ON');

    const chatbots = () => db.prepare('SELECT id, chatbot_id FROM webhook_deliveries ORDER BY id').all();
    expect(chatbots()).toEqual([{ id: 'kept', chatbot_id: 'bot' }, { id: 'ping', chatbot_id: null }]);
    expect(db.prepare('SELECT delivery_id FROM webhook_attempts ORDER BY delivery_id').pluck().all()).toEqual(['kept', 'ping']);
    db.prepare("DELETE FROM chatbots WHERE id = 'bot'").run();
    expect(chatbots()).toEqual([{ id: 'ping', chatbot_id: null }]);
    expect(db.prepare('SELECT delivery_id FROM webhook_attempts').pluck().all()).toEqual(['ping']);
    db.close();
  });
});
