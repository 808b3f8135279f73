import type { Database } from 'better-sqlite3';
import type { Digest, DigestRepository, Platform } from '../port.js';
import { channelListingParams, channelListingSql, type ChannelListingParams } from './channel-listing.js';

type DigestRow = {
  id: string;
  account_id: string;
  chatbot_id: string;
  platform: Platform;
  workspace_id: string;
  channel_id: string;
  time: string;
  timezone: string;
  post_when_empty: 0 | 1;
  created_at: number;
  updated_at: number;
};

const toDigest = (row: DigestRow): Digest => ({
  id: row.id,
  accountId: row.account_id,
  chatbotId: row.chatbot_id,
  platform: row.platform,
  workspaceId: row.workspace_id,
  channelId: row.channel_id,
  time: row.time,
  timezone: row.timezone,
  postWhenEmpty: row.post_when_empty === 1,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

// SQLite binds no booleans.
const toRow = (digest: Digest): DigestRow => ({
  id: digest.id,
  account_id: digest.accountId,
  chatbot_id: digest.chatbotId,
  platform: digest.platform,
  workspace_id: digest.workspaceId,
  channel_id: digest.channelId,
  time: digest.time,
  timezone: digest.timezone,
  post_when_empty: digest.postWhenEmpty ? 1 : 0,
  created_at: digest.createdAt.getTime(),
  updated_at: digest.updatedAt.getTime(),
});

export function sqliteDigests(db: Database): DigestRepository {
  // One statement: the unique constraint decides between insert and update.
  const upsert = db.prepare<[DigestRow], DigestRow>(
    `INSERT INTO digests (id, account_id, chatbot_id, platform, workspace_id, channel_id, time, timezone,
       post_when_empty, created_at, updated_at)
     VALUES (@id, @account_id, @chatbot_id, @platform, @workspace_id, @channel_id, @time, @timezone,
       @post_when_empty, @created_at, @updated_at)
     ON CONFLICT (account_id, chatbot_id, platform, workspace_id, channel_id) DO UPDATE SET
       time = excluded.time, timezone = excluded.timezone, post_when_empty = excluded.post_when_empty,
       updated_at = excluded.updated_at
     RETURNING *`,
  );
  const list = db.prepare<[ChannelListingParams], DigestRow>(channelListingSql('digests'));
  const all = db.prepare<[], DigestRow>('SELECT * FROM digests ORDER BY created_at, id');
  const remove = db.prepare<[string, string], DigestRow>(
    'DELETE FROM digests WHERE account_id = ? AND id = ? RETURNING *',
  );

  return {
    async upsert(digest) {
      const row = upsert.get(toRow(digest));
      if (!row) throw new Error('upsert returned no row');
      return toDigest(row);
    },
    async list(accountId, filter, page) {
      return list.all(channelListingParams(accountId, filter, page)).map(toDigest);
    },
    async delete(accountId, id) {
      const row = remove.get(accountId, id);
      return row ? toDigest(row) : undefined;
    },
    async listAll() {
      return all.all().map(toDigest);
    },
  };
}
