import { randomBytes } from 'node:crypto';
import { nanoid } from 'nanoid';
import type {
  Account,
  Page,
  Store,
  Webhook,
  WebhookAttempt,
  WebhookChange,
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

/** An owner's change: `chatbotId` null makes it account-wide; `enabled` true turns it on again. */
export type WebhookPatch = { url?: string; events?: WebhookEvent[]; chatbotId?: string | null; enabled?: boolean };

/** Why a webhook its owner turned off is off. */
export const TURNED_OFF = 'turned off by the account';

/** `whsec_` and 32 random bytes: shown once, at creation. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** Creates a webhook; the answer holds its secret, which no later call returns. */
export async function createWebhook(
  store: Store,
  account: Account,
  input: WebhookInput,
  rule: AddressRule,
): Promise<Webhook> {
  const url = await allowedUrl(input.url, rule);
  if (input.chatbotId !== undefined) await findOwnedChatbot(store, account, input.chatbotId);
  const now = new Date();
  const webhook: Webhook = {
    id: nanoid(),
    accountId: account.id,
    url,
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

/** The URL, normalised, if the address rule allows it. */
async function allowedUrl(given: string, rule: AddressRule): Promise<string> {
  const url = new URL(given);
  const refused = await refusedDestination(url, rule);
  if (refused) throw invalidRequest(`webhook url refused: ${refused}`);
  return url.href;
}

/**
 * Changes what is given; the secret stays. Turned on again, a webhook starts afresh: no reason,
 * and the hours of failure that disable it count from its next failure.
 */
export async function updateWebhook(store: Store, account: Account, id: string, patch: WebhookPatch, rule: AddressRule): Promise<Webhook> {
  await findOwnedWebhook(store, account, id);
  if (patch.chatbotId) await findOwnedChatbot(store, account, patch.chatbotId);
  const change: WebhookChange = {
    url: patch.url === undefined ? undefined : await allowedUrl(patch.url, rule),
    events: patch.events && [...new Set(patch.events)],
    chatbotId: patch.chatbotId,
    updatedAt: new Date(),
    ...(patch.enabled !== undefined && {
      enabled: patch.enabled,
      disabledReason: patch.enabled ? null : TURNED_OFF,
      failingSince: null,
    }),
  };
  return found(await store.webhooks.update(account.id, id, change), id);
}

/** Gives the webhook a new secret, answered this once; deliveries from now on are signed with it. */
export async function rotateWebhookSecret(store: Store, account: Account, id: string): Promise<Webhook> {
  return found(await store.webhooks.update(account.id, id, { secret: newSecret(), updatedAt: new Date() }), id);
}

/** Oldest first. */
export function listWebhooks(store: Store, account: Account, filter: WebhookFilter, page: Page): Promise<Webhook[]> {
  return store.webhooks.list(account.id, filter, page);
}

function found(webhook: Webhook | undefined, id: string): Webhook {
  if (!webhook) throw notFound(`webhook ${id}`);
  return webhook;
}

export async function findOwnedWebhook(store: Store, account: Account, id: string): Promise<Webhook> {
  return found(await store.webhooks.find(account.id, id), id);
}

/** Answers the deleted webhook; its undelivered events go with it. */
export async function deleteWebhook(store: Store, account: Account, id: string): Promise<Webhook> {
  return found(await store.webhooks.delete(account.id, id), id);
}

/** Puts a `ping` in the outbox; the delivery job sends it like any event. */
export async function sendTestEvent(store: Store, account: Account, id: string): Promise<WebhookDelivery> {
  const event = ping(await findOwnedWebhook(store, account, id), new Date());
  await store.webhookOutbox.enqueue(event);
  return event;
}

/**
 * Sends a delivered or failed event of the webhook again, as it was (same id and body, signed
 * afresh): once, or with the usual retries while the event is younger than the retry period.
 */
export async function resendDelivery(store: Store, account: Account, id: string, eventId: string): Promise<WebhookDelivery> {
  await findOwnedWebhook(store, account, id);
  const delivery = await store.webhookOutbox.requeue(id, eventId, new Date());
  if (!delivery) throw notFound(`event ${eventId} of webhook ${id}`);
  return delivery;
}

/** The webhook's delivery attempts, newest first. */
export async function listDeliveries(store: Store, account: Account, id: string, page: Page): Promise<WebhookAttempt[]> {
  await findOwnedWebhook(store, account, id);
  return store.webhookOutbox.attempts(id, page);
}
