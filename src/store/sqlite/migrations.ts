import type { Database } from 'better-sqlite3';

// Schema versions, applied in order and recorded in PRAGMA user_version. Append; never edit one
// that has shipped.
const MIGRATIONS: string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    messages_per_month INTEGER NOT NULL,
    max_chatbots INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE api_keys (
    hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX api_keys_by_account ON api_keys(account_id);
  CREATE TABLE chatbots (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    settings TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX chatbots_by_account ON chatbots(account_id, created_at);
  CREATE TABLE training_sources (
    chatbot_id TEXT PRIMARY KEY REFERENCES chatbots(id) ON DELETE CASCADE,
    source_text TEXT NOT NULL
  );
  CREATE TABLE training_chunks (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (chatbot_id, seq)
  ) WITHOUT ROWID;
  CREATE TABLE assets (
    chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    content_type TEXT NOT NULL,
    data BLOB NOT NULL,
    etag TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (chatbot_id, kind)
  );
  `,
];

export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  MIGRATIONS.slice(current).forEach((sql, offset) => {
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${current + offset + 1}`);
    }).immediate();
  });
}
