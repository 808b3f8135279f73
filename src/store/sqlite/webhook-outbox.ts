import type { Database } from 'better-sqlite3';
import { pageOffset } from '../paging.js';
import type {
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEventType,
  WebhookOutboxRepository,
} from '../port.js';
import { toLead, type LeadRow } from './lead-rows.js';
import { deleteInStages } from './staging.js';

type DeliveryRow = {
  id: string;
  webhook_id: string;
  account_id: string;
  chatbot_id: string | null;
  event_type: WebhookEventType;
  event_key: string;
  body: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  claimed_by: string | null;
  lease_until: number | null;
  created_at: number;
  updated_at: number;
};

type AttemptRow = {
  delivery_id: string;
  attempt: number;
  webhook_id: string;
  event_type: WebhookEventType;
  status: WebhookDeliveryStatus;
  response_status: number | null;
  error: string | null;
  at: number;
};

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  webhookId: row.webhook_id,
  accountId: row.account_id,
  chatbotId: row.chatbot_id,
  eventType: row.event_type,
  eventKey: row.event_key,
  body: row.body,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: new Date(row.next_attempt_at),
  claimedBy: row.claimed_by,
  leaseUntil: row.lease_until === null ? null : new Date(row.lease_until),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const toRow = (delivery: WebhookDelivery): DeliveryRow => ({
  id: delivery.id,
  webhook_id: delivery.webhookId,
  account_id: delivery.accountId,
  chatbot_id: delivery.chatbotId,
  event_type: delivery.eventType,
  event_key: delivery.eventKey,
  body: delivery.body,
  status: delivery.status,
  attempts: delivery.attempts,
  next_attempt_at: delivery.nextAttemptAt.getTime(),
  claimed_by: delivery.claimedBy,
  lease_until: delivery.leaseUntil?.getTime() ?? null,
  created_at: delivery.createdAt.getTime(),
  updated_at: delivery.updatedAt.getTime(),
});

const toAttempt = (row: AttemptRow): WebhookAttempt => ({
  deliveryId: row.delivery_id,
  webhookId: row.webhook_id,
  eventType: row.event_type,
  attempt: row.attempt,
  status: row.status,
  responseStatus: row.response_status,
  error: row.error,
  at: new Date(row.at),
});

export function sqliteWebhookOutbox(db: Database): WebhookOutboxRepository {
  const unannounced = db.prepare<[number], LeadRow & { revision: number }>(
    `SELECT id, chatbot_id, account_id, name, email, phone, conversation_id, created_at, revision FROM leads
     WHERE webhook_pending = 1 ORDER BY created_at, id LIMIT ?`,
  );
  // The unique (webhook_id, event_key) keeps an event from being enqueued twice for one webhook. An
  // event of a chatbot deleted since it happened is not enqueued (nor refused by the foreign key).
  const enqueue = db.prepare<[DeliveryRow]>(
    `INSERT INTO webhook_deliveries (id, webhook_id, account_id, chatbot_id, event_type, event_key, body, status, attempts,
       next_attempt_at, claimed_by, lease_until, created_at, updated_at)
     SELECT @id, @webhook_id, @account_id, @chatbot_id, @event_type, @event_key, @body, @status, @attempts,
       @next_attempt_at, @claimed_by, @lease_until, @created_at, @updated_at
     WHERE @chatbot_id IS NULL OR EXISTS (SELECT 1 FROM chatbots WHERE id = @chatbot_id)
     ON CONFLICT (webhook_id, event_key) DO NOTHING`,
  );
  // A correction stored since the lead was read has a later revision, and keeps its mark.
  const announced = db.prepare<[string, number]>('UPDATE leads SET webhook_pending = 0 WHERE id = ? AND revision = ?');
  const announce = db.transaction((leadId: string, revision: number, deliveries: WebhookDelivery[]) => {
    for (const delivery of deliveries) enqueue.run(toRow(delivery));
    announced.run(leadId, revision);
  });
  // One statement under SQLite's write lock: two processes cannot take the same delivery.
  const claim = db.prepare<[{ now: number; claimedBy: string; leaseUntil: number; limit: number }], DeliveryRow>(
    `UPDATE webhook_deliveries SET claimed_by = @claimedBy, lease_until = @leaseUntil, updated_at = @now
     WHERE id IN (
       SELECT id FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until < @now)
       ORDER BY next_attempt_at, id LIMIT @limit)
     RETURNING *`,
  );
  const release = db.prepare<
    [{ id: string; claimedBy: string; status: string; nextAttemptAt: number; at: number }],
    { attempts: number; webhook_id: string; event_type: WebhookEventType }
  >(
    `UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1, next_attempt_at = @nextAttemptAt,
       claimed_by = NULL, lease_until = NULL, updated_at = @at
     WHERE id = @id AND claimed_by = @claimedBy AND status = 'pending'
     RETURNING attempts, webhook_id, event_type`,
  );
  const recordAttempt = db.prepare<[AttemptRow]>(
    `INSERT INTO webhook_attempts (delivery_id, attempt, webhook_id, event_type, status, response_status, error, at)
     VALUES (@delivery_id, @attempt, @webhook_id, @event_type, @status, @response_status, @error, @at)`,
  );
  const settle = db.transaction((id: string, claimedBy: string, outcome: Parameters<WebhookOutboxRepository['settle']>[2]) => {
    const { at, status, nextAttemptAt, responseStatus, error } = outcome;
    const row = release.get({ id, claimedBy, status, nextAttemptAt: nextAttemptAt.getTime(), at: at.getTime() });
    if (!row) return false;
    recordAttempt.run({
      delivery_id: id,
      attempt: row.attempts,
      webhook_id: row.webhook_id,
      event_type: row.event_type,
      status,
      response_status: responseStatus,
      error,
      at: at.getTime(),
    });
    return true;
  });
  const find = db.prepare<[string], DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = ?');
  const drop = db.prepare<[string]>('DELETE FROM webhook_deliveries WHERE id = ?');
  const requeue = db.prepare<[{ webhookId: string; id: string; at: number }], DeliveryRow>(
    `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = @at, claimed_by = NULL, lease_until = NULL, updated_at = @at
     WHERE id = @id AND webhook_id = @webhookId AND status <> 'pending'
     RETURNING *`,
  );
  const attempts = db.prepare<[string, number, number], AttemptRow>(
    `SELECT * FROM webhook_attempts WHERE webhook_id = ?
     ORDER BY at DESC, delivery_id DESC, attempt DESC LIMIT ? OFFSET ?`,
  );

  const pruneDone = db.prepare(
    `DELETE FROM webhook_deliveries WHERE id IN
     (SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < ? LIMIT ?)`,
  );
  return {
    async unannouncedLeads(limit) {
      return unannounced.all(limit).map((row) => ({ ...toLead(row), revision: row.revision }));
    },
    async announceLead(leadId, revision, deliveries) {
      announce.immediate(leadId, revision, deliveries);
    },
    async enqueue(delivery) {
      enqueue.run(toRow(delivery));
    },
    async claimDue({ now, claimedBy, leaseUntil, limit }) {
      return claim.all({ now: now.getTime(), claimedBy, leaseUntil: leaseUntil.getTime(), limit }).map(toDelivery);
    },
    async settle(id, claimedBy, outcome) {
      return settle.immediate(id, claimedBy, outcome);
    },
    // Its attempts go with it (ON DELETE CASCADE).
    async drop(id) {
      drop.run(id);
    },
    async find(id) {
      const row = find.get(id);
      return row ? toDelivery(row) : undefined;
    },
    async requeue(webhookId, id, at) {
      const row = requeue.get({ webhookId, id, at: at.getTime() }) ?? find.get(id);
      return row?.webhook_id === webhookId ? toDelivery(row) : undefined;
    },
    async attempts(webhookId, page) {
      return attempts.all(webhookId, page.size, pageOffset(page)).map(toAttempt);
    },
    // A delivery's attempts go with it (ON DELETE CASCADE).
    prune: (doneBefore) => deleteInStages(pruneDone, [doneBefore.getTime()]),
  };
}
