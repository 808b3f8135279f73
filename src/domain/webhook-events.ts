import { nanoid } from 'nanoid';
import type { ChangedHandoff, HandoffSnapshot, Incarnation, PendingLead, UnansweredExample, UnansweredGroup, Webhook, WebhookDelivery, WebhookEventType } from '../store/port.js';

// The events webhooks receive, in the hosted service's shape: `{id, createdAt, eventType,
// chatbotId, payload}`. The body is fixed when the event enters the outbox, so every attempt
// sends (and signs) the same bytes, and `id` is the X-Switchboard-Event-Id of all of them.

type EventBody = {
  id: string;
  createdAt: string;
  eventType: WebhookEventType;
  chatbotId: string | null;
  payload: Record<string, unknown>;
};

function delivery(
  webhook: Webhook,
  eventKey: string,
  event: Omit<EventBody, 'id'>,
  at: Date,
): WebhookDelivery {
  const id = nanoid();
  return {
    id,
    webhookId: webhook.id,
    accountId: webhook.accountId,
    chatbotId: event.chatbotId,
    eventType: event.eventType,
    eventKey,
    body: JSON.stringify({ id, ...event }),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: at,
    claimedBy: null,
    leaseUntil: null,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * `leads.submit` of a new or corrected lead, for one webhook, with every field as it now stands;
 * keyed by the lead and its revision, so each version is enqueued once. The first revision keeps
 * the key it had before leads had revisions.
 */
export function leadSubmitted(webhook: Webhook, lead: PendingLead, at: Date): WebhookDelivery {
  return delivery(
    webhook,
    lead.revision === 1 ? `leads.submit:${lead.id}` : `leads.submit:${lead.id}:${lead.revision}`,
    {
      createdAt: lead.createdAt.toISOString(),
      eventType: 'leads.submit',
      chatbotId: lead.chatbotId,
      payload: {
        leadId: lead.id,
        conversationId: lead.conversationId,
        customerEmail: lead.email,
        customerName: lead.name,
        customerPhone: lead.phone,
        revision: lead.revision,
      },
    },
    at,
  );
}

const exampleBody = (example: UnansweredExample) => ({
  conversationId: example.conversationId,
  messageId: example.messageId,
  source: example.source,
  askedAt: example.askedAt.toISOString(),
});

/**
 * `unanswered.created` of a new group of unanswered questions, with the ask that opened it, for
 * one webhook; keyed by the group, so it is enqueued once.
 */
export function unansweredCreated(webhook: Webhook, group: UnansweredGroup, opening: UnansweredExample, at: Date): WebhookDelivery {
  return delivery(
    webhook,
    `unanswered.created:${group.id}`,
    {
      createdAt: group.firstAskedAt.toISOString(),
      eventType: 'unanswered.created',
      chatbotId: group.chatbotId,
      payload: {
        group: {
          id: group.id,
          question: group.question,
          count: group.count,
          firstAskedAt: group.firstAskedAt.toISOString(),
          lastAskedAt: group.lastAskedAt.toISOString(),
          status: group.status,
        },
        example: exampleBody(opening),
      },
    },
    at,
  );
}

/** A conversation's handoff state as the API shows it (get-conversations, webhook events). */
export function handoffView(handoff: HandoffSnapshot) {
  return { status: handoff.status, requested_at: handoff.requestedAt.toISOString(), taken_by: handoff.takenBy };
}

// A handoff event's key ends in its conversation's incarnation, when it has one, after this mark:
// no key ends in it otherwise (an incarnation is hex, and a key without one ends in `:<time>`).
const INCARNATION_MARK = '@';
const incarnationSuffix = (incarnation: Incarnation) => (incarnation === null ? '' : `${INCARNATION_MARK}${incarnation}`);
const INCARNATION_AT_END = new RegExp(`${INCARNATION_MARK}([0-9a-f]+)$`);
const incarnationInKey = (eventKey: string): Incarnation => INCARNATION_AT_END.exec(eventKey)?.[1] ?? null;

/**
 * `handoff.requested` when a conversation is handed to a person, `handoff.resolved` when it is
 * handed back (resolved, or missed: its state says which); keyed by the request, its state, and
 * the incarnation of the conversation it was in (which the body does not show).
 */
export function handoffChanged(
  webhook: Webhook,
  eventType: 'handoff.requested' | 'handoff.resolved',
  conversation: { chatbotId: string; conversationId: string; handoff: ChangedHandoff },
  at: Date,
): WebhookDelivery {
  const { chatbotId, conversationId, handoff } = conversation;
  return delivery(
    webhook,
    `${eventType}:${chatbotId}:${conversationId}:${handoff.requestedAt.getTime()}${incarnationSuffix(handoff.incarnation)}`,
    { createdAt: at.toISOString(), eventType, chatbotId, payload: { chatbotId, conversationId, handoff: handoffView(handoff) } },
    at,
  );
}

/** A `ping` asked for by a test request; each is its own event. */
export function ping(webhook: Webhook, at: Date): WebhookDelivery {
  return delivery(
    webhook,
    `ping:${nanoid()}`,
    { createdAt: at.toISOString(), eventType: 'ping', chatbotId: webhook.chatbotId, payload: { webhookId: webhook.id } },
    at,
  );
}

/**
 * The person's record an event carries, which erasing them removes: their lead, a group of
 * unanswered questions they opened, or their conversation (a handoff event names it, and which
 * incarnation of it: one begun afresh under the id is another).
 */
export type ErasableSubject = { kind: 'lead' | 'group'; id: string } | { kind: 'conversation'; id: string; incarnation: Incarnation };

type ErasablePayload = { leadId: string; group: { id: string }; conversationId: string };

/**
 * What `delivery` carries of a person, read from what leadSubmitted, unansweredCreated or
 * handoffChanged wrote; a ping carries none.
 */
export function erasableSubject(delivery: Pick<WebhookDelivery, 'eventType' | 'eventKey' | 'body'>): ErasableSubject | undefined {
  if (delivery.eventType === 'ping') return undefined;
  const { payload } = JSON.parse(delivery.body) as { payload: ErasablePayload };
  switch (delivery.eventType) {
    case 'leads.submit':
      return { kind: 'lead', id: payload.leadId };
    case 'unanswered.created':
      return { kind: 'group', id: payload.group.id };
    case 'handoff.requested':
    case 'handoff.resolved':
      return { kind: 'conversation', id: payload.conversationId, incarnation: incarnationInKey(delivery.eventKey) };
  }
}
