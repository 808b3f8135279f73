import type { Database } from 'better-sqlite3';
import type { Asset, AssetKind, AssetRepository } from '../port.js';

type AssetRow = {
  chatbot_id: string;
  kind: AssetKind;
  content_type: string;
  data: Buffer;
  etag: string;
  updated_at: number;
};

export function sqliteAssets(db: Database): AssetRepository {
  const upsert = db.prepare(
    `INSERT INTO assets (chatbot_id, kind, content_type, data, etag, updated_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (chatbot_id, kind) DO UPDATE SET content_type = excluded.content_type,
       data = excluded.data, etag = excluded.etag, updated_at = excluded.updated_at`,
  );
  const one = db.prepare<[string, AssetKind], AssetRow>(
    'SELECT * FROM assets WHERE chatbot_id = ? AND kind = ?',
  );
  const etagOf = db.prepare<[string, AssetKind], { etag: string }>(
    'SELECT etag FROM assets WHERE chatbot_id = ? AND kind = ?',
  );
  const remove = db.prepare('DELETE FROM assets WHERE chatbot_id = ? AND kind = ?');

  return {
    async put(asset) {
      const { chatbotId, kind, contentType, data, etag, updatedAt } = asset;
      upsert.run(chatbotId, kind, contentType, data, etag, updatedAt.getTime());
    },
    async get(chatbotId, kind): Promise<Asset | undefined> {
      const row = one.get(chatbotId, kind);
      return row
        ? {
            chatbotId: row.chatbot_id,
            kind: row.kind,
            contentType: row.content_type,
            data: row.data,
            etag: row.etag,
            updatedAt: new Date(row.updated_at),
          }
        : undefined;
    },
    async etag(chatbotId, kind) {
      return etagOf.get(chatbotId, kind)?.etag;
    },
    async delete(chatbotId, kind) {
      return remove.run(chatbotId, kind).changes > 0;
    },
  };
}
