import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { runAdmin, startMain, stop, tempDatabaseUrl } from '../support/processes.js';

// `npm run admin -- backup FILE` copies the hub's SQLite database while hubs keep writing to it,
// and a hub started on the copy, put in place as the README says, serves what it held.

const KEY = 'sb_backup_key_for_tests_0000000000000';

const MATERIAL = [
  'We open at 9am and close at 5pm, Monday to Friday.',
  'Deliveries leave the warehouse every morning and arrive within two working days.',
  'Our lamps carry a two-year warranty covering the bulb holder and the switch.',
].join('\n\n');

function hubCalls(apiUrl: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  return {
    call,
    createChatbot: async (chatbotName: string, sourceText: string) =>
      ((await call('POST', '/create-chatbot', { chatbotName, sourceText })).body as { chatbotId: string }).chatbotId,
    chat: (chatbotId: string, content: string, conversationId?: string) =>
      call('POST', '/chat', { chatbotId, conversationId, messages: [{ role: 'user', content }] }),
  };
}

const backupFile = (databaseUrl: string, name = 'backup.db') => join(dirname(databaseUrl.slice('sqlite:'.length)), name);

describe('npm run admin -- backup', () => {
  it('copies the database while a hub takes chats: the copy is whole, opens as a store and holds every chat answered before it began', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    const hub = await startMain({ DATABASE_URL, BOOTSTRAP_API_KEY: KEY });
    const { createChatbot, chat } = hubCalls(hub.apiUrl);
    // Some megabytes of material, so that the copy takes many steps.
    const chatbotId = await createChatbot('Support', `${MATERIAL}\n\n${'Filler paragraph about nothing much. '.repeat(60_000)}`);

    // A reader holding an older snapshot (a long report, say) keeps checkpoints from moving the
    // chats into the database file: they are in the write-ahead log, which a copy of the file misses.
    const reader = new Database(DATABASE_URL.slice('sqlite:'.length), { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM chatbots').get();

    const answered: string[] = [];
    let chatting = true;
    const chats = (async () => {
      for (let n = 0; chatting; n += 1) {
        const response = await chat(chatbotId, `When do you open? (${n})`, `chat-${n}`);
        expect(response.status).toBe(200);
        answered.push(`chat-${n}`);
      }
    })();
    while (answered.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));

    const answeredBefore = [...answered];
    const backedUp = await runAdmin(['backup', backupFile(DATABASE_URL)], { DATABASE_URL });
    const answeredDuring = answered.length - answeredBefore.length;
    chatting = false;
    await chats;
    reader.close();
    expect(await stop(hub.child)).toBe(0);

    expect(backedUp).toMatchObject({ code: 0, stderr: '' });
    expect(backedUp.stdout).toMatch(/^Backed up \S+switchboard\.db to \S+backup\.db: [\d.]+ MB in [\d.]+ m?s.*, checked whole\.\n$/);
    // The hub kept answering while the backup ran.
    expect(answeredDuring).toBeGreaterThan(0);

    const copy = new Database(backupFile(DATABASE_URL), { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
    const store = openSqliteStore(backupFile(DATABASE_URL));
    try {
      for (const id of answeredBefore) {
        const conversation = await store.conversations.find(chatbotId, id);
        expect(conversation?.messages.map((message) => message.role), id).toEqual(['user', 'assistant']);
      }
    } finally {
      await store.close();
    }
  }, 60_000);

  it('restores: a hub started on the copy in place of its database serves the chatbots, sources, conversations and answers it held', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    const database = DATABASE_URL.slice('sqlite:'.length);
    const first = await startMain({ DATABASE_URL, BOOTSTRAP_API_KEY: KEY });
    const before = hubCalls(first.apiUrl);
    const chatbotId = await before.createChatbot('Support', MATERIAL);
    // An uploaded file is kept in the database, and read into the chatbot's material by the sources job.
    const form = new FormData();
    form.append('file', new Blob(['# Returns\n\nReturns are accepted within 30 days of purchase, with the receipt.\n'], { type: 'text/markdown' }), 'returns.md');
    const uploaded = await fetch(`${first.apiUrl}/chatbots/${chatbotId}/sources`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}` },
      body: form,
    });
    expect(uploaded.status).toBe(202);
    const sources = () => before.call('GET', `/chatbots/${chatbotId}/sources`);
    const sourcesReady = async () => ((await sources()).body as { data: { status: string }[] }).data.every((source) => source.status === 'ready');
    for (let tries = 0; !(await sourcesReady()) && tries < 200; tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await sourcesReady()).toBe(true);
    expect(await before.chat(chatbotId, 'When do you open?', 'before-backup')).toMatchObject({ status: 200 });

    const asked = async (calls: ReturnType<typeof hubCalls>) => ({
      chatbots: await calls.call('GET', '/get-chatbots'),
      sources: await calls.call('GET', `/chatbots/${chatbotId}/sources`),
      conversations: await calls.call('GET', `/get-conversations?chatbotId=${chatbotId}`),
      opening: await calls.chat(chatbotId, 'When do you open?'),
      returns: await calls.chat(chatbotId, 'How long do I have to return something?'),
    });
    const served = await asked(before);
    expect(served.opening.body).toEqual({ text: expect.stringContaining('9am') });
    expect(served.returns.body).toEqual({ text: expect.stringContaining('30 days') });

    expect((await runAdmin(['backup', backupFile(DATABASE_URL)], { DATABASE_URL })).code).toBe(0);
    // Changes after the backup, which the restore undoes.
    await before.createChatbot('Later', 'Made after the backup.');
    await before.chat(chatbotId, 'Do you deliver?', 'after-backup');
    const [file] = ((await sources()).body as { data: { id: string; type: string }[] }).data.filter((source) => source.type === 'file');
    expect((await before.call('DELETE', `/chatbots/${chatbotId}/sources/${file?.id}`)).status).toBe(200);
    // Killed, as a crashed hub leaves its write-ahead log and shared memory beside the database.
    await stop(first.child, 'SIGKILL');
    expect(existsSync(`${database}-wal`)).toBe(true);

    // The README's restore: with the hub stopped, remove the -wal and -shm files, copy the backup in place.
    rmSync(`${database}-wal`, { force: true });
    rmSync(`${database}-shm`, { force: true });
    copyFileSync(backupFile(DATABASE_URL), database);
    const restored = await startMain({ DATABASE_URL, BOOTSTRAP_API_KEY: KEY });
    const after = await asked(hubCalls(restored.apiUrl));
    expect(await stop(restored.child)).toBe(0);

    expect(after).toEqual(served);
    expect(JSON.stringify(after.conversations.body)).toContain('before-backup');
    expect(JSON.stringify(after.conversations.body)).not.toContain('after-backup');
  }, 60_000);

  it('refuses an existing FILE, a missing directory, a missing database and a MongoDB URL with exit 2, writing nothing', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    expect((await runAdmin(['create-account', 'acme'], { DATABASE_URL })).code).toBe(0);
    const directory = dirname(DATABASE_URL.slice('sqlite:'.length));
    const listing = () => readdirSync(directory).sort();
    writeFileSync(backupFile(DATABASE_URL), 'last night’s backup');
    const files = listing();

    const exists = await runAdmin(['backup', backupFile(DATABASE_URL)], { DATABASE_URL });
    expect(exists).toMatchObject({ code: 2, stdout: '', stderr: `admin: ${backupFile(DATABASE_URL)} exists; choose a new file\n` });
    expect(readFileSync(backupFile(DATABASE_URL), 'utf8')).toBe('last night’s backup');

    const noDirectory = await runAdmin(['backup', join(directory, 'missing', 'backup.db')], { DATABASE_URL });
    expect(noDirectory).toMatchObject({ code: 2, stdout: '', stderr: `admin: the directory ${join(directory, 'missing')} does not exist\n` });

    const noDatabase = await runAdmin(['backup', backupFile(DATABASE_URL, 'other.db')], { DATABASE_URL: `sqlite:${join(directory, 'typo.db')}` });
    expect(noDatabase).toMatchObject({ code: 2, stdout: '' });
    expect(noDatabase.stderr).toContain(`there is no database at ${join(directory, 'typo.db')}`);

    const mongo = await runAdmin(['backup', backupFile(DATABASE_URL, 'other.db')], { DATABASE_URL: 'mongodb://127.0.0.1:27017/switchboard' });
    expect(mongo).toMatchObject({ code: 2, stdout: '' });
    // As README's Backups says: one moment's copy while hubs write needs --oplog.
    expect(mongo.stderr).toContain('mongodump --oplog');

    expect(listing()).toEqual(files);
  }, 60_000);
});
