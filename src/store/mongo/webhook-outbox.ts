import { pageOffset } from '../paging.js';
import type { WebhookAttempt, WebhookDelivery, WebhookDeliveryStatus, WebhookOutboxRepository } from '../port.js';
import { deleteDeliveries } from './delivery-removal.js';
import { atRevision } from './leads.js';
import { toLead } from './lead-docs.js';
import type { LeadDoc, MongoModels, WebhookAttemptDoc, WebhookDeliveryDoc } from './models.js';
import { retryOnceOnDuplicateKey } from './upsert.js';

const toDelivery = (doc: WebhookDeliveryDoc): WebhookDelivery => ({
  id: doc._id,
  webhookId: doc.webhookId,
  accountId: doc.accountId,
  chatbotId: doc.chatbotId ?? null,
  eventType: doc.eventType,
  eventKey: doc.eventKey,
  body: doc.body,
  status: doc.status,
  attempts: doc.attempts,
  nextAttemptAt: doc.nextAttemptAt,
  claimedBy: doc.claimedBy ?? null,
  leaseUntil: doc.leaseUntil ?? null,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

const toAttempt = (doc: WebhookAttemptDoc): WebhookAttempt => ({
  deliveryId: doc.deliveryId,
  webhookId: doc.webhookId,
  eventType: doc.eventType,
  attempt: doc.attempt,
  status: doc.status,
  responseStatus: doc.responseStatus ?? null,
  error: doc.error ?? null,
  at: doc.at,
});

export function mongoWebhookOutbox(models: MongoModels): WebhookOutboxRepository {
  const { chatbots, leads, webhookDeliveries, webhookAttempts } = models;

  // The unique {webhookId, eventKey} index makes this insert-if-absent, whoever races it.
  const enqueue = async (delivery: WebhookDelivery) => {
    const { id, webhookId, eventKey, ...fields } = delivery;
    await retryOnceOnDuplicateKey(() =>
      webhookDeliveries.updateOne(
        { webhookId, eventKey },
        { $setOnInsert: { _id: id, ...fields } },
        { upsert: true },
      ),
    );
    // An event of a chatbot deleted since it happened is not kept (the repair removes one whose
    // chatbot's deletion came between these two writes).
    const { chatbotId } = delivery;
    if (chatbotId !== null && !(await chatbots.exists({ _id: chatbotId }))) await webhookDeliveries.deleteOne({ webhookId, eventKey });
  };

  return {
    async unannouncedLeads(limit) {
      const docs = await leads.find({ webhookPending: true }).sort({ createdAt: 1, _id: 1 }).limit(limit).lean<LeadDoc[]>();
      return docs.map((doc) => ({ ...toLead(doc), revision: doc.revision ?? 1 }));
    },
    // Two writes without a transaction (a standalone mongod has none): a crash between them leaves
    // the mark, and the next pass enqueues again, which the unique index turns into nothing. A
    // correction stored since the lead was read has a later revision, and keeps its mark.
    async announceLead(leadId, revision, deliveries) {
      for (const delivery of deliveries) await enqueue(delivery);
      await leads.updateOne({ _id: leadId, revision: atRevision(revision) }, { $unset: { webhookPending: 1 } });
    },
    enqueue,
    // One findOneAndUpdate per delivery: each is atomic, so racing claimers never share one.
    async claimDue({ now, claimedBy, leaseUntil, limit }) {
      const claimed: WebhookDelivery[] = [];
      while (claimed.length < limit) {
        const doc = await webhookDeliveries
          .findOneAndUpdate(
            {
              status: 'pending',
              nextAttemptAt: { $lte: now },
              $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }],
            },
            { $set: { claimedBy, leaseUntil, updatedAt: now } },
            { sort: { nextAttemptAt: 1, _id: 1 }, returnDocument: 'after' },
          )
          .lean<WebhookDeliveryDoc>();
        if (!doc) break;
        claimed.push(toDelivery(doc));
      }
      return claimed;
    },
    // The attempt is logged after the delivery is settled: a crash between loses only the log line.
    async settle(id, claimedBy, outcome) {
      const { at, status, nextAttemptAt, responseStatus, error } = outcome;
      const doc = await webhookDeliveries
        .findOneAndUpdate(
          { _id: id, claimedBy, status: 'pending' },
          { $set: { status, nextAttemptAt, claimedBy: null, leaseUntil: null, updatedAt: at }, $inc: { attempts: 1 } },
          { returnDocument: 'after' },
        )
        .lean<WebhookDeliveryDoc>();
      if (!doc) return false;
      await webhookAttempts.create({
        deliveryId: id,
        webhookId: doc.webhookId,
        chatbotId: doc.chatbotId ?? null,
        eventType: doc.eventType,
        attempt: doc.attempts,
        status,
        responseStatus,
        error,
        at,
      });
      return true;
    },
    async drop(id) {
      await deleteDeliveries(models, [id]);
    },
    async find(id) {
      const doc = await webhookDeliveries.findById(id).lean<WebhookDeliveryDoc>();
      return doc ? toDelivery(doc) : undefined;
    },
    async requeue(webhookId, id, at) {
      const doc =
        (await webhookDeliveries
          .findOneAndUpdate(
            { _id: id, webhookId, status: { $ne: 'pending' } },
            { $set: { status: 'pending', nextAttemptAt: at, claimedBy: null, leaseUntil: null, updatedAt: at } },
            { returnDocument: 'after' },
          )
          .lean<WebhookDeliveryDoc>()) ?? (await webhookDeliveries.findOne({ _id: id, webhookId }).lean<WebhookDeliveryDoc>());
      return doc ? toDelivery(doc) : undefined;
    },
    async attempts(webhookId, page) {
      const docs = await webhookAttempts
        .find({ webhookId })
        .sort({ at: -1, deliveryId: -1, attempt: -1 })
        .skip(pageOffset(page))
        .limit(page.size)
        .lean<WebhookAttemptDoc[]>();
      return docs.map(toAttempt);
    },
    async prune(doneBefore) {
      const done = { status: { $in: DONE }, updatedAt: { $lt: doneBefore } };
      let pruned = 0;
      for (;;) {
        const ids = (await webhookDeliveries.find(done, { _id: 1 }).limit(PRUNE_BATCH).lean<{ _id: string }[]>()).map(({ _id }) => _id);
        if (ids.length === 0) return pruned;
        pruned += await deleteDeliveries(models, ids, done);
        if (ids.length < PRUNE_BATCH) return pruned;
      }
    },
  };
}

/** Deliveries pruned a batch at a time. */
const PRUNE_BATCH = 500;
const DONE: WebhookDeliveryStatus[] = ['delivered', 'failed'];
