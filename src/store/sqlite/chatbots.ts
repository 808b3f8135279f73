import type { Database } from 'better-sqlite3';
import { completeSettings } from '../../settings/chatbot-settings.js';
import { applyPatch } from '../../settings/patch.js';
import type { Chatbot, ChatbotChange, ChatbotRepository, ChatbotStatus, ChatbotSummary } from '../port.js';
import type { CommitWatch } from './commit-watch.js';

type ChatbotRow = {
  id: string;
  account_id: string;
  name: string;
  status: ChatbotStatus;
  settings: string;
  created_at: number;
  updated_at: number;
};

const toChatbot = (row: ChatbotRow): Chatbot => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  status: row.status,
  settings: completeSettings(JSON.parse(row.settings) as Chatbot['settings']),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

type Listed = ChatbotSummary['settings'];
/** A listed chatbot as an array of its columns (the list query's order): cheaper to build than an object. */
type SummaryRow = [string, string, ChatbotStatus, number, number, Listed['model'], Listed['instructions'], Listed['visibility']];

const toSummary = ([id, name, status, createdAt, updatedAt, model, instructions, visibility]: SummaryRow): ChatbotSummary => ({
  id,
  name,
  status,
  settings: { model, instructions, visibility },
  createdAt: new Date(createdAt),
  updatedAt: new Date(updatedAt),
});

/** Accounts whose lists are kept at once, at most; more, and all are dropped. */
const MAX_KEPT_LISTS = 1000;

/** The settings JSON, then the listed settings' own columns (kept equal to it). */
function settingsColumns(settings: Chatbot['settings']) {
  return [JSON.stringify(settings), settings.model, settings.instructions, settings.visibility] as const;
}

export function sqliteChatbots(db: Database, commits: CommitWatch): ChatbotRepository {
  const countOwned = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM chatbots WHERE account_id = ?',
  );
  const insert = db.prepare(
    `INSERT INTO chatbots (id, account_id, name, status, settings, model, instructions, visibility, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[string, string], ChatbotRow>(
    'SELECT * FROM chatbots WHERE account_id = ? AND id = ?',
  );
  const anyOwner = db.prepare<[string], ChatbotRow>('SELECT * FROM chatbots WHERE id = ?');
  // The listed settings have columns of their own, written with the settings JSON: parsing every
  // chatbot's settings, in JavaScript or in SQLite, was most of a list (get-chatbots' hot path).
  const owned = db.prepare<[string], SummaryRow>(
    `SELECT id, name, status, created_at, updated_at, model, instructions, visibility
     FROM chatbots WHERE account_id = ? ORDER BY created_at, id`,
  ).raw();
  const write = db.prepare(
    `UPDATE chatbots SET name = ?, status = ?, settings = ?, model = ?, instructions = ?, visibility = ?, updated_at = ?
     WHERE account_id = ? AND id = ?`,
  );
  const remove = db.prepare('DELETE FROM chatbots WHERE account_id = ? AND id = ?');
  // Even this small query takes a read transaction and its file locks, about a fifth of
  // get-chatbots' CPU time. Lists are kept until the next commit to the database by any
  // connection, in this process or another (each hub instance's), so none is ever stale.
  const kept = new Map<string, SummaryRow[]>();
  const listedRows = (accountId: string): SummaryRow[] => {
    if (commits.committedSince()) kept.clear();
    let rows = kept.get(accountId);
    if (!rows) {
      rows = owned.all(accountId);
      if (kept.size >= MAX_KEPT_LISTS) kept.clear();
      kept.set(accountId, rows);
    }
    return rows;
  };

  // IMMEDIATE transactions take the write lock before reading, so a count-then-insert or a
  // read-merge-write cannot interleave with another writer, even in another process.
  const insertWithinLimit = db.transaction((chatbot: Chatbot, limit: number) => {
    if ((countOwned.get(chatbot.accountId)?.n ?? 0) >= limit) return false;
    insert.run(
      chatbot.id,
      chatbot.accountId,
      chatbot.name,
      chatbot.status,
      ...settingsColumns(chatbot.settings),
      chatbot.createdAt.getTime(),
      chatbot.updatedAt.getTime(),
    );
    return true;
  });
  const update = db.transaction(
    (accountId: string, id: string, change: ChatbotChange) => {
      const row = byId.get(accountId, id);
      if (!row) return undefined;
      const current = toChatbot(row);
      const next: Chatbot = {
        ...current,
        name: change.name ?? current.name,
        status: change.status ?? current.status,
        settings: change.settings ? applyPatch(current.settings, change.settings) : current.settings,
        updatedAt: change.updatedAt,
      };
      write.run(next.name, next.status, ...settingsColumns(next.settings), next.updatedAt.getTime(), accountId, id);
      return next;
    },
  );

  return {
    async insertWithinLimit(chatbot, limit) {
      return insertWithinLimit.immediate(chatbot, limit);
    },
    async find(accountId, id) {
      const row = byId.get(accountId, id);
      return row ? toChatbot(row) : undefined;
    },
    async findPublic(id) {
      const row = anyOwner.get(id);
      return row ? toChatbot(row) : undefined;
    },
    async list(accountId) {
      return listedRows(accountId).map(toSummary);
    },
    async update(accountId, id, change) {
      return update.immediate(accountId, id, change);
    },
    async delete(accountId, id) {
      return remove.run(accountId, id).changes > 0;
    },
  };
}
