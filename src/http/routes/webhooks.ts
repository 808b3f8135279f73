import Router from '@koa/router';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  createWebhook,
  deleteWebhook,
  findOwnedWebhook,
  listDeliveries,
  listWebhooks,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  TURNED_OFF,
  updateWebhook,
  WEBHOOK_EVENTS,
} from '../../domain/webhooks.js';
import type { AddressRule } from '../../net/address-rule.js';
import type { Store, Webhook, WebhookAttempt, WebhookDelivery } from '../../store/port.js';
import { isoTime } from '../iso-time.js';
import type { AuthState } from '../middleware/auth.js';
import { pageQuery } from '../schemas/listing.js';
import { jsonRequest, jsonResponse, keyedFailures, successOf } from '../schemas/responses.js';
import { success } from '../success.js';
import { chatbotId, parseInput } from '../validation.js';

// Webhooks under /integrations: signed event deliveries to the account's own receivers.
// Key-authenticated and account-scoped like bindings. The secret is answered once, by POST.

const event = z.enum(WEBHOOK_EVENTS).meta({
  description:
    '`leads.submit`: a new lead, and again, with every field as it now stands and a `revision` one higher, ' +
    'each time a conversation’s lead is corrected (an unchanged re-submission sends nothing); ' +
    '`unanswered.created`: a new group of unanswered questions; `handoff.requested` and `handoff.resolved`: ' +
    'a conversation handed to a person, and back.',
});

// The address rule (no private or metadata hosts) is the domain's; here only the shape.
const url = z.string().max(2048).pipe(z.url({ protocol: /^https?$/ }));
const events = z.array(event).min(1).max(WEBHOOK_EVENTS.length * 4);

const webhookBody = z.strictObject({ url, events, chatbotId: chatbotId.optional() });

const webhookPatch = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    chatbotId: chatbotId.nullable().optional().meta({ description: '`null`: every chatbot of the account.' }),
    enabled: z.boolean().optional().meta({
      description: `\`true\` turns a disabled webhook on again (its reason cleared, the hours of failure counted afresh); \`false\` turns it off (reason \`${TURNED_OFF}\`), and its queued events end as failed.`,
    }),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), 'nothing to change');

const listQuery = pageQuery.extend({
  chatbotId: chatbotId.optional(),
  event: event.optional(),
  enabled: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});

const idPath = z.object({ id: z.string() });
const eventPath = idPath.extend({ eventId: z.string() });

const webhookItem = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(event),
    chatbotId: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Webhook' });
const deliveryStatus = z.enum(['pending', 'delivered', 'failed']);
const eventType = z.enum([...WEBHOOK_EVENTS, 'ping']);
const attemptItem = z
  .object({
    eventId: z.string(),
    event: eventType,
    attempt: z.int(),
    status: deliveryStatus,
    responseCode: z.int().nullable(),
    error: z.string().nullable(),
    at: z.iso.datetime(),
  })
  .meta({ id: 'WebhookAttempt' });

function toWebhookBody(webhook: Webhook): z.infer<typeof webhookItem> {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    chatbotId: webhook.chatbotId,
    enabled: webhook.enabled,
    disabledReason: webhook.disabledReason,
    created_at: isoTime(webhook.createdAt),
    updated_at: isoTime(webhook.updatedAt),
  };
}

const queuedItem = z.object({ eventId: z.string(), event: eventType, status: deliveryStatus });

const toQueuedBody = (delivery: WebhookDelivery): z.infer<typeof queuedItem> => ({
  eventId: delivery.id,
  event: delivery.eventType,
  status: delivery.status,
});

function toAttemptBody(attempt: WebhookAttempt): z.infer<typeof attemptItem> {
  return {
    eventId: attempt.deliveryId,
    event: attempt.eventType,
    attempt: attempt.attempt,
    status: attempt.status,
    responseCode: attempt.responseStatus,
    error: attempt.error,
    at: isoTime(attempt.at),
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

  router.get('/:id', async (ctx) => {
    const { id } = parseInput(idPath, ctx.params);
    ctx.body = success(toWebhookBody(await findOwnedWebhook(store, ctx.state.account, id)));
  });

  router.patch('/:id', async (ctx) => {
    const { id } = parseInput(idPath, ctx.params);
    const patch = parseInput(webhookPatch, ctx.request.body);
    ctx.body = success(toWebhookBody(await updateWebhook(store, ctx.state.account, id, patch, rule)));
  });

  router.post('/:id/rotate-secret', async (ctx) => {
    const { id } = parseInput(idPath, ctx.params);
    const webhook = await rotateWebhookSecret(store, ctx.state.account, id);
    ctx.body = success({ ...toWebhookBody(webhook), secret: webhook.secret });
  });

  router.delete('/:id', async (ctx) => {
    const { id } = parseInput(idPath, ctx.params);
    ctx.body = success(toWebhookBody(await deleteWebhook(store, ctx.state.account, id)));
  });

  router.post('/:id/test', async (ctx) => {
    const { id } = parseInput(idPath, ctx.params);
    ctx.status = 202;
    ctx.body = success(toQueuedBody(await sendTestEvent(store, ctx.state.account, id)));
  });

  router.post('/:id/deliveries/:eventId/resend', async (ctx) => {
    const { id, eventId } = parseInput(eventPath, ctx.params);
    ctx.status = 202;
    ctx.body = success(toQueuedBody(await resendDelivery(store, ctx.state.account, id, eventId)));
  });

  router.get('/:id/deliveries', async (ctx) => {
    const { id } = parseInput(idPath, ctx.params);
    const page = parseInput(pageQuery, ctx.query);
    const attempts = await listDeliveries(store, ctx.state.account, id, page);
    ctx.body = success(attempts.map(toAttemptBody));
  });

  return router;
}

const oneWebhook = jsonResponse('The webhook', successOf(webhookItem));
const withSecret = (description: string) => jsonResponse(description, successOf(webhookItem.extend({ secret: z.string() })));
const tags = ['Webhooks'];

export const webhookPaths: ZodOpenApiPathsObject = {
  '/integrations/webhooks': {
    post: {
      operationId: 'createWebhook',
      tags,
      summary: 'Subscribe a receiver to signed event deliveries',
      description: 'The answer carries the signing `secret`, shown this once.',
      requestBody: jsonRequest(webhookBody),
      responses: {
        200: withSecret('The webhook and its secret'),
        ...keyedFailures(),
      },
    },
    get: {
      operationId: 'listWebhooks',
      tags,
      summary: 'List the account’s webhooks',
      requestParams: { query: listQuery },
      responses: { 200: jsonResponse('A page of webhooks', successOf(z.array(webhookItem))), ...keyedFailures() },
    },
  },
  '/integrations/webhooks/{id}': {
    get: {
      operationId: 'getWebhook',
      tags,
      summary: 'One webhook',
      requestParams: { path: idPath },
      responses: { 200: oneWebhook, ...keyedFailures() },
    },
    patch: {
      operationId: 'updateWebhook',
      tags,
      summary: 'Change a webhook, or turn it on again or off',
      description: 'Only the fields given change; the secret stays.',
      requestParams: { path: idPath },
      requestBody: jsonRequest(webhookPatch, { enabled: true }),
      responses: { 200: oneWebhook, ...keyedFailures() },
    },
    delete: {
      operationId: 'deleteWebhook',
      tags,
      summary: 'Delete a webhook',
      requestParams: { path: idPath },
      responses: { 200: oneWebhook, ...keyedFailures() },
    },
  },
  '/integrations/webhooks/{id}/rotate-secret': {
    post: {
      operationId: 'rotateWebhookSecret',
      tags,
      summary: 'Give the webhook a new signing secret',
      description: 'The answer carries the new `secret`, shown this once; every delivery from now on, retries included, is signed with it.',
      requestParams: { path: idPath },
      responses: { 200: withSecret('The webhook and its new secret'), ...keyedFailures() },
    },
  },
  '/integrations/webhooks/{id}/test': {
    post: {
      operationId: 'testWebhook',
      tags,
      summary: 'Queue a `ping` event to the webhook',
      requestParams: { path: idPath },
      responses: {
        202: jsonResponse('Queued', successOf(queuedItem)),
        ...keyedFailures(),
      },
    },
  },
  '/integrations/webhooks/{id}/deliveries/{eventId}/resend': {
    post: {
      operationId: 'resendWebhookEvent',
      tags,
      summary: 'Send a delivered or failed event again',
      description:
        'The same event (its id and body), signed afresh. One attempt for an event older than `WEBHOOK_RETRY_HOURS`, the usual retries for a younger one. An event still pending is left as it is.',
      requestParams: { path: eventPath },
      responses: { 202: jsonResponse('Queued', successOf(queuedItem)), ...keyedFailures() },
    },
  },
  '/integrations/webhooks/{id}/deliveries': {
    get: {
      operationId: 'listWebhookDeliveries',
      tags,
      summary: 'The webhook’s delivery attempts, newest first',
      requestParams: { path: idPath, query: pageQuery },
      responses: { 200: jsonResponse('A page of attempts', successOf(z.array(attemptItem))), ...keyedFailures() },
    },
  },
};
