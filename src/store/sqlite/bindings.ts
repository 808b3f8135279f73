import type { Database } from 'better-sqlite3';
import {
  WORKSPACE_DEFAULT,
  type Binding,
  type BindingMode,
  type BindingRepository,
  type Platform,
} from '../port.js';
import { channelListingParams, channelListingSql, type ChannelListingParams } from './channel-listing.js';

type BindingRow = {
  id: string;
  account_id: string;
  platform: Platform;
  workspace_id: string;
  channel_id: string;
  chatbot_id: string;
  mode: BindingMode;
  created_at: number;
  updated_at: number;
};

const toBinding = (row: BindingRow): Binding => ({
  id: row.id,
  accountId: row.account_id,
  platform: row.platform,
  workspaceId: row.workspace_id,
  channelId: row.channel_id,
  chatbotId: row.chatbot_id,
  mode: row.mode,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const toRow = (binding: Binding): BindingRow => ({
  id: binding.id,
  account_id: binding.accountId,
  platform: binding.platform,
  workspace_id: binding.workspaceId,
  channel_id: binding.channelId,
  chatbot_id: binding.chatbotId,
  mode: binding.mode,
  created_at: binding.createdAt.getTime(),
  updated_at: binding.updatedAt.getTime(),
});

export function sqliteBindings(db: Database): BindingRepository {
  // One statement: the unique (account, platform, workspace, channel) constraint decides between
  // insert and update, so concurrent binds of one channel leave one binding.
  const upsert = db.prepare<[BindingRow], BindingRow>(
    `INSERT INTO bindings (id, account_id, platform, workspace_id, channel_id, chatbot_id, mode, created_at, updated_at)
     VALUES (@id, @account_id, @platform, @workspace_id, @channel_id, @chatbot_id, @mode, @created_at, @updated_at)
     ON CONFLICT (account_id, platform, workspace_id, channel_id) DO UPDATE SET
       chatbot_id = excluded.chatbot_id, mode = excluded.mode, updated_at = excluded.updated_at
     RETURNING *`,
  );
  const list = db.prepare<[ChannelListingParams], BindingRow>(channelListingSql('bindings'));
  // The channel's own binding sorts before the workspace default.
  const resolve = db.prepare<[string, string, string, string, string], BindingRow>(
    `SELECT * FROM bindings
     WHERE account_id = ? AND platform = ? AND workspace_id = ? AND channel_id IN (?, ?)
     ORDER BY channel_id = '${WORKSPACE_DEFAULT}'
     LIMIT 1`,
  );
  const remove = db.prepare<[string, string], BindingRow>(
    'DELETE FROM bindings WHERE account_id = ? AND id = ? RETURNING *',
  );

  return {
    async upsert(binding) {
      const row = upsert.get(toRow(binding));
      if (!row) throw new Error('upsert returned no row');
      return toBinding(row);
    },
    async list(accountId, filter, page) {
      return list.all(channelListingParams(accountId, filter, page)).map(toBinding);
    },
    async resolve(accountId, { platform, workspaceId, channelId }) {
      const row = resolve.get(accountId, platform, workspaceId, channelId, WORKSPACE_DEFAULT);
      return row ? toBinding(row) : undefined;
    },
    async delete(accountId, id) {
      const row = remove.get(accountId, id);
      return row ? toBinding(row) : undefined;
    },
  };
}
