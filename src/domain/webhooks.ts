import { randomBytes } from 'node:crypto';
import { nanoid } from 'nanoid';
import type {
  Account,
  Page,
  Store,
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEvent,
  WebhookFilter,
} from '../store/port.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { invalidRequest, notFound } from './errors.js';
import { refusedDestination, type AddressRule } from '../net/address-rule.js';
import { ping } from './webhook-events.js';

// Webhooks: an account's subscriptions to events, delivered by the job in jobs/webhooks from the
// store's outbox. Nothing here sends anything: a request only writes to the store.

export const WEBHOOK_EVENTS = ['leads.submit', 'unanswered.created', 'handoff.requested', 'handoff.resolved'] as const satisfies readonly WebhookEvent[];

export type WebhookInput = { url: string; events: WebhookEvent[]; chatbotId?: string };

/** `whsec_` and 32 random bytes: shown once, at creation. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** Creates a webhook; the answer holds its secret, which no later call returns. */
export async function createWebhook(
  store: Store,
  account: Account,
  input: WebhookInput,
  rule: AddressRule,
): Promise<Webhook> {
  const url = new URL(input.url);
  const refused = await refusedDestination(url, rule);
  if (refused) throw invalidRequest(`webhook url refused: ${refused}`);
  if (input.chatbotId !== undefined) await findOwnedChatbot(store, account, input.chatbotId);
  const now = new Date();
  const webhook: Webhook = {
    id: nanoid(),
    accountId: account.id,
    url: url.href,
    events: [...new Set(input.events)],
    chatbotId: input.chatbotId ?? null,
    secret: newSecret(),
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  await store.webhooks.create(webhook);
  return webhook;
}

/** Oldest first. */
export function listWebhooks(store: Store, account: Account, filter: WebhookFilter, page: Page): Promise<Webhook[]> {
  return store.webhooks.list(account.id, filter, page);
}

async function findOwnedWebhook(store: Store, account: Account, id: string): Promise<Webhook> {
  const webhook = await store.webhooks.find(account.id, id);
  if (!webhook) throw notFound(`webhook ${id}`);
  return webhook;
}

/** Answers the deleted webhook; its undelivered events go with it. */
export async function deleteWebhook(store: Store, account: Account, id: string): Promise<Webhook> {
  const webhook = await store.webhooks.delete(account.id, id);
  if (!webhook) throw notFound(`webhook ${id}`);
  return webhook;
}

/** Puts a `ping` in the outbox; the delivery job sends it like any event. */
export async function sendTestEvent(store: Store, account: Account, id: string): Promise<WebhookDelivery> {
  const event = ping(await findOwnedWebhook(store, account, id), new Date());
  await store.webhookOutbox.enqueue(event);
  return event;
}

/** The webhook's delivery attempts, newest first. */
export async function listDeliveries(store: Store, account: Account, id: string, page: Page): Promise<WebhookAttempt[]> {
  await findOwnedWebhook(store, account, id);
  return store.webhookOutbox.attempts(id, page);
}
