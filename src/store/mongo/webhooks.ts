import { givenFields } from '../given-fields.js';
import { pageOffset } from '../paging.js';
import type { Webhook, WebhookRepository } from '../port.js';
import type { MongoModels, WebhookDoc } from './models.js';

const toWebhook = (doc: WebhookDoc): Webhook => ({
  id: doc._id,
  accountId: doc.accountId,
  url: doc.url,
  events: doc.events,
  chatbotId: doc.chatbotId ?? null,
  secret: doc.secret,
  enabled: doc.enabled,
  disabledReason: doc.disabledReason ?? null,
  failingSince: doc.failingSince ?? null,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

const found = (doc: WebhookDoc | null) => (doc ? toWebhook(doc) : undefined);

export function mongoWebhooks(models: MongoModels): WebhookRepository {
  const { webhooks, webhookDeliveries, webhookAttempts } = models;

  return {
    async create(webhook) {
      const { id, ...fields } = webhook;
      await webhooks.create({ _id: id, ...fields });
    },
    async find(accountId, id) {
      return found(await webhooks.findOne({ _id: id, accountId }).lean<WebhookDoc>());
    },
    async findById(id) {
      return found(await webhooks.findById(id).lean<WebhookDoc>());
    },
    async list(accountId, filter, page) {
      const docs = await webhooks
        .find({
          accountId,
          ...(filter.chatbotId !== undefined && { chatbotId: filter.chatbotId }),
          ...(filter.event !== undefined && { events: filter.event }),
          ...(filter.enabled !== undefined && { enabled: filter.enabled }),
        })
        .sort({ createdAt: 1, _id: 1 })
        .skip(pageOffset(page))
        .limit(page.size)
        .lean<WebhookDoc[]>();
      return docs.map(toWebhook);
    },
    async update(accountId, id, change) {
      return found(await webhooks.findOneAndUpdate({ _id: id, accountId }, { $set: givenFields(change) }, { returnDocument: 'after' }).lean<WebhookDoc>());
    },
    async delete(accountId, id) {
      const doc = await webhooks.findOneAndDelete({ _id: id, accountId }).lean<WebhookDoc>();
      if (!doc) return undefined;
      await Promise.all([webhookDeliveries.deleteMany({ webhookId: id }), webhookAttempts.deleteMany({ webhookId: id })]);
      return toWebhook(doc);
    },
    async subscribers(accountId, chatbotId, event) {
      const docs = await webhooks
        .find({ accountId, enabled: true, events: event, chatbotId: { $in: [null, chatbotId] } })
        .sort({ createdAt: 1, _id: 1 })
        .lean<WebhookDoc[]>();
      return docs.map(toWebhook);
    },
    async noteSuccess(id) {
      await webhooks.updateOne({ _id: id }, { $set: { failingSince: null } });
    },
    // Only a webhook not yet failing takes the time, so the first failure's time stays.
    async noteFailure(id, at) {
      await webhooks.updateOne({ _id: id, failingSince: null }, { $set: { failingSince: at } });
      const doc = await webhooks.findById(id, { failingSince: 1 }).lean<Pick<WebhookDoc, 'failingSince'>>();
      return doc?.failingSince ?? undefined;
    },
    async disable(id, reason, at, failingSince) {
      await webhooks.updateOne({ _id: id, failingSince }, { $set: { enabled: false, disabledReason: reason, updatedAt: at } });
    },
  };
}
