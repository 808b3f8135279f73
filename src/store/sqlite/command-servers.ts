import type { Database } from 'better-sqlite3';
import type { CommandServerRepository } from '../port.js';

// The servers as a JSON array: read and written whole, never searched.

export function sqliteCommandServers(db: Database): CommandServerRepository {
  const find = db.prepare<[string, string], { server_ids: string }>(
    'SELECT server_ids FROM command_servers WHERE account_id = ? AND application_id = ?',
  );
  const save = db.prepare<{ accountId: string; applicationId: string; serverIds: string; at: number }>(
    `INSERT INTO command_servers (account_id, application_id, server_ids, updated_at)
     VALUES (@accountId, @applicationId, @serverIds, @at)
     ON CONFLICT (account_id, application_id) DO UPDATE SET server_ids = excluded.server_ids, updated_at = excluded.updated_at`,
  );

  return {
    async find(accountId, applicationId) {
      const row = find.get(accountId, applicationId);
      return row && (JSON.parse(row.server_ids) as string[]);
    },
    async save(accountId, applicationId, serverIds, at) {
      save.run({ accountId, applicationId, serverIds: JSON.stringify(serverIds), at: at.getTime() });
    },
  };
}
