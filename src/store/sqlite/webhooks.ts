import type { Database } from 'better-sqlite3';
import { givenFields } from '../given-fields.js';
import { pageOffset } from '../paging.js';
import type { Webhook, WebhookChange, WebhookEvent, WebhookRepository } from '../port.js';

type WebhookRow = {
  id: string;
  account_id: string;
  url: string;
  /** JSON array of event names. */
  events: string;
  chatbot_id: string | null;
  secret: string;
  enabled: number;
  disabled_reason: string | null;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
};

type ListParams = {
  accountId: string;
  chatbotId: string | null;
  event: string | null;
  enabled: number | null;
  limit: number;
  offset: number;
};

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  accountId: row.account_id,
  url: row.url,
  events: JSON.parse(row.events) as WebhookEvent[],
  chatbotId: row.chatbot_id,
  secret: row.secret,
  enabled: row.enabled === 1,
  disabledReason: row.disabled_reason,
  failingSince: row.failing_since === null ? null : new Date(row.failing_since),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const toRow = (webhook: Webhook): WebhookRow => ({
  id: webhook.id,
  account_id: webhook.accountId,
  url: webhook.url,
  events: JSON.stringify(webhook.events),
  chatbot_id: webhook.chatbotId,
  secret: webhook.secret,
  enabled: webhook.enabled ? 1 : 0,
  disabled_reason: webhook.disabledReason,
  failing_since: webhook.failingSince?.getTime() ?? null,
  created_at: webhook.createdAt.getTime(),
  updated_at: webhook.updatedAt.getTime(),
});

const SUBSCRIBED = 'EXISTS (SELECT 1 FROM json_each(webhooks.events) WHERE value = @event)';

export function sqliteWebhooks(db: Database): WebhookRepository {
  const insert = db.prepare<[WebhookRow]>(
    `INSERT INTO webhooks (id, account_id, url, events, chatbot_id, secret, enabled, disabled_reason, failing_since, created_at, updated_at)
     VALUES (@id, @account_id, @url, @events, @chatbot_id, @secret, @enabled, @disabled_reason, @failing_since, @created_at, @updated_at)`,
  );
  const find = db.prepare<[string, string], WebhookRow>('SELECT * FROM webhooks WHERE account_id = ? AND id = ?');
  const findById = db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE id = ?');
  // Absent filters are null and match anything; webhooks_by_account finds and sorts the page.
  const list = db.prepare<[ListParams], WebhookRow>(
    `SELECT * FROM webhooks
     WHERE account_id = @accountId
       AND (@chatbotId IS NULL OR chatbot_id = @chatbotId)
       AND (@event IS NULL OR ${SUBSCRIBED})
       AND (@enabled IS NULL OR enabled = @enabled)
     ORDER BY created_at, id
     LIMIT @limit OFFSET @offset`,
  );
  const rewrite = db.prepare<[WebhookRow]>(
    `UPDATE webhooks SET url = @url, events = @events, chatbot_id = @chatbot_id, secret = @secret, enabled = @enabled,
       disabled_reason = @disabled_reason, failing_since = @failing_since, updated_at = @updated_at WHERE id = @id`,
  );
  // Read, changed and written in one transaction: no other write comes between.
  const update = db.transaction((accountId: string, id: string, change: WebhookChange) => {
    const row = find.get(accountId, id);
    if (!row) return undefined;
    const changed: Webhook = { ...toWebhook(row), ...givenFields(change) };
    rewrite.run(toRow(changed));
    return changed;
  });
  const remove = db.prepare<[string, string], WebhookRow>('DELETE FROM webhooks WHERE account_id = ? AND id = ? RETURNING *');
  const subscribers = db.prepare<[{ accountId: string; chatbotId: string; event: string }], WebhookRow>(
    `SELECT * FROM webhooks
     WHERE account_id = @accountId AND enabled = 1
       AND (chatbot_id IS NULL OR chatbot_id = @chatbotId) AND ${SUBSCRIBED}
     ORDER BY created_at, id`,
  );
  const noteSuccess = db.prepare<[string]>('UPDATE webhooks SET failing_since = NULL WHERE id = ?');
  const noteFailure = db.prepare<[number, string], { failing_since: number }>(
    'UPDATE webhooks SET failing_since = COALESCE(failing_since, ?) WHERE id = ? RETURNING failing_since',
  );
  const disable = db.prepare<[string, number, string, number]>(
    'UPDATE webhooks SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ? AND failing_since = ?',
  );

  return {
    async create(webhook) {
      insert.run(toRow(webhook));
    },
    async find(accountId, id) {
      const row = find.get(accountId, id);
      return row ? toWebhook(row) : undefined;
    },
    async findById(id) {
      const row = findById.get(id);
      return row ? toWebhook(row) : undefined;
    },
    async list(accountId, filter, page) {
      const params: ListParams = {
        accountId,
        chatbotId: filter.chatbotId ?? null,
        event: filter.event ?? null,
        enabled: filter.enabled === undefined ? null : Number(filter.enabled),
        limit: page.size,
        offset: pageOffset(page),
      };
      return list.all(params).map(toWebhook);
    },
    async update(accountId, id, change) {
      return update(accountId, id, change);
    },
    async delete(accountId, id) {
      const row = remove.get(accountId, id);
      return row ? toWebhook(row) : undefined;
    },
    async subscribers(accountId, chatbotId, event) {
      return subscribers.all({ accountId, chatbotId, event }).map(toWebhook);
    },
    async noteSuccess(id) {
      noteSuccess.run(id);
    },
    async noteFailure(id, at) {
      const row = noteFailure.get(at.getTime(), id);
      return row ? new Date(row.failing_since) : undefined;
    },
    async disable(id, reason, at, failingSince) {
      disable.run(reason, at.getTime(), id, failingSince.getTime());
    },
  };
}
