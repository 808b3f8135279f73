import Router from '@koa/router';
import { z } from 'zod';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  sendTestEvent,
  WEBHOOK_EVENTS,
  type AddressRule,
} from '../../domain/webhooks.js';
import type { Store, Webhook, WebhookAttempt } from '../../store/port.js';
import type { AuthState } from '../middleware/auth.js';
import { pageQuery } from '../schemas/listing.js';
import { success } from '../success.js';
import { chatbotId, parseInput } from '../validation.js';

// Webhooks under /integrations: signed event deliveries to the account's own receivers.
// Key-authenticated and account-scoped like bindings. The secret is answered once, by POST.

const event = z.enum(WEBHOOK_EVENTS);

const webhookBody = z.strictObject({
  // The address rule (no private or metadata hosts) is the domain's; here only the shape.
  url: z.string().max(2048).pipe(z.url({ protocol: /^https?$/ })),
  events: z.array(event).min(1).max(WEBHOOK_EVENTS.length * 4),
  chatbotId: chatbotId.optional(),
});

const listQuery = pageQuery.extend({
  chatbotId: chatbotId.optional(),
  event: event.optional(),
  enabled: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});

const idPath = z.object({ id: z.string() });

function toWebhookBody(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    chatbotId: webhook.chatbotId,
    enabled: webhook.enabled,
    disabledReason: webhook.disabledReason,
    created_at: webhook.createdAt.toISOString(),
    updated_at: webhook.updatedAt.toISOString(),
  };
}

function toAttemptBody(attempt: WebhookAttempt) {
  return {
    eventId: attempt.deliveryId,
    event: attempt.eventType,
    attempt: attempt.attempt,
    status: attempt.status,
    responseCode: attempt.responseStatus,
    error: attempt.error,
    at: attempt.at.toISOString(),
  };
}

export function webhookRoutes(store: Store, rule: AddressRule): Router<AuthState> {
  const router = new Router<AuthState>({ prefix: '/integrations/webhooks' });

  router.post('/', async (ctx) => {
    const input = parseInput(webhookBody, ctx.request.body);
    const webhook = await createWebhook(store, ctx.state.account, input, rule);
    ctx.body = success({ ...toWebhookBody(webhook), secret: webhook.secret });
  });

  router.get('/', async (ctx) => {
    const { page, size, ...filter } = parseInput(listQuery, ctx.query);
    const webhooks = await listWebhooks(store, ctx.state.account, filter, { page, size });
    ctx.body = success(webhooks.map(toWebhookBody));
  });

  router.delete('/:id', async (ctx) => {
    const { id } = parseInput(idPath, ctx.params);
    ctx.body = success(toWebhookBody(await deleteWebhook(store, ctx.state.account, id)));
  });

  router.post('/:id/test', async (ctx) => {
    const { id } = parseInput(idPath, ctx.params);
    const queued = await sendTestEvent(store, ctx.state.account, id);
    ctx.status = 202;
    ctx.body = success({ eventId: queued.id, event: queued.eventType, status: queued.status });
  });

  router.get('/:id/deliveries', async (ctx) => {
    const { id } = parseInput(idPath, ctx.params);
    const page = parseInput(pageQuery, ctx.query);
    const attempts = await listDeliveries(store, ctx.state.account, id, page);
    ctx.body = success(attempts.map(toAttemptBody));
  });

  return router;
}
