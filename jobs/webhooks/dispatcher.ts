import type { Logger } from 'pino';
import { newProcessId } from '../process-id.js';
import { waitAtMost } from '../grace.js';
import type { WebhookConfig } from '../../src/config.js';
import { leadSubmitted, unansweredCreated } from '../../src/domain/webhook-events.js';
import { recordWebhookRun } from '../../src/metrics.js';
import type { Store, Webhook, WebhookDelivery, WebhookDeliveryStatus } from '../../src/store/port.js';
import { DEFAULT_BACKOFF, retryDelay, type Backoff } from './backoff.js';
import { carriesErased } from './erased.js';
import { post, WITHDRAWN } from './send.js';
import { signedHeaders } from './sign.js';

// The webhook job: each pass turns new and corrected leads and new groups of unanswered questions into outbox
// entries (one per subscribed webhook), then claims the deliveries that are due and sends them. Any number of processes may run it on
// one store: a claim is a lease, so each delivery is in one process's hands at a time, and a
// process that dies mid-send leaves it to be taken over when the lease ends. Requests to the API
// only ever write to the store; the sending happens here.

/** New or corrected leads, and new groups of unanswered questions, announced per pass. */
const LEADS_PER_PASS = 100;
const DELIVERIES_PER_PASS = 20;
const POLL_MS = 1_000;
const STOP_GRACE_MS = 5_000;

export type DispatcherOptions = WebhookConfig & {
  store: Store;
  logger: Logger;
  now?: () => Date;
  backoff?: Backoff;
  random?: () => number;
  /** Between passes, when the last one found nothing to do. */
  pollMs?: number;
  /** Names this process in the claims. */
  processId?: string;
};

/** `dropped`: what it carried of a person was erased, so it was removed unsent. */
export type DeliveryOutcome = { deliveryId: string; webhookId: string; status: WebhookDeliveryStatus | 'lost' | 'dropped' };

export type Dispatcher = {
  readonly processId: string;
  /** One pass: enqueue new leads' events, then send what is due. Resolves when every send has ended. */
  tick(): Promise<DeliveryOutcome[]>;
  start(): void;
  /** Stops polling and waits for the pass in progress, at most `graceMs`. */
  stop(graceMs?: number): Promise<void>;
};

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createWebhookDispatcher(options: DispatcherOptions): Dispatcher {
  const { store, logger, allowPrivate, timeoutMs, retryForMs, disableAfterMs } = options;
  const now = options.now ?? (() => new Date());
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const processId = options.processId ?? newProcessId();
  // Longer than any send can take, so a live process never loses a delivery it is sending.
  const leaseMs = Math.max(60_000, timeoutMs * 3);
  const log = logger.child({ job: 'webhooks', process: processId });

  async function announceNewLeads(): Promise<void> {
    for (const lead of await store.webhookOutbox.unannouncedLeads(LEADS_PER_PASS)) {
      const at = now();
      const subscribers = await store.webhooks.subscribers(lead.accountId, lead.chatbotId, 'leads.submit');
      await store.webhookOutbox.announceLead(
        lead.id,
        lead.revision,
        subscribers.map((webhook) => leadSubmitted(webhook, lead, at)),
      );
    }
  }

  // Enqueued first, then the mark cleared: after a crash in between, the next pass enqueues again
  // and the outbox skips what it already holds (one entry per webhook and group).
  async function announceNewGroups(): Promise<void> {
    for (const { group, opening } of await store.unanswered.unannounced(LEADS_PER_PASS)) {
      const at = now();
      for (const webhook of await store.webhooks.subscribers(group.accountId, group.chatbotId, 'unanswered.created')) {
        await store.webhookOutbox.enqueue(unansweredCreated(webhook, group, opening, at));
      }
      await store.unanswered.markAnnounced(group.id);
    }
  }

  async function settle(
    delivery: WebhookDelivery,
    status: WebhookDeliveryStatus,
    result: { responseStatus: number | null; error: string | null; nextAttemptAt?: Date },
  ): Promise<DeliveryOutcome> {
    const at = now();
    recordWebhookRun(status === 'delivered' ? 'delivered' : 'failed');
    const settled = await store.webhookOutbox.settle(delivery.id, processId, {
      at,
      status,
      responseStatus: result.responseStatus,
      error: result.error,
      nextAttemptAt: result.nextAttemptAt ?? at,
    });
    // Lost: the lease ran out and another process took the delivery over; its record stands.
    return { deliveryId: delivery.id, webhookId: delivery.webhookId, status: settled ? status : 'lost' };
  }

  async function failed(webhook: Webhook, delivery: WebhookDelivery, responseStatus: number | null, error: string) {
    const at = now();
    const next = new Date(at.getTime() + retryDelay(delivery.attempts + 1, backoff, options.random));
    const givenUp = next.getTime() - delivery.createdAt.getTime() > retryForMs;
    const outcome = await settle(delivery, givenUp ? 'failed' : 'pending', { responseStatus, error, nextAttemptAt: next });
    const context = { webhookId: webhook.id, eventId: delivery.id, host: new URL(webhook.url).host, responseStatus };
    log.warn({ ...context, attempt: delivery.attempts + 1, error, givenUp }, 'webhook delivery failed');

    const failingSince = await store.webhooks.noteFailure(webhook.id, at);
    if (webhook.enabled && failingSince && at.getTime() - failingSince.getTime() >= disableAfterMs) {
      const hours = Math.round(disableAfterMs / 3_600_000);
      const reason = `every delivery failed for ${hours} hours since ${failingSince.toISOString()}; last: ${error}`;
      await store.webhooks.disable(webhook.id, reason, at, failingSince);
      log.error({ ...context, reason }, 'webhook disabled');
    }
    return outcome;
  }

  async function dropErased(delivery: WebhookDelivery): Promise<DeliveryOutcome> {
    await store.webhookOutbox.drop(delivery.id);
    log.info({ webhookId: delivery.webhookId, eventId: delivery.id, eventType: delivery.eventType }, 'webhook delivery dropped: what it carried was erased');
    return { deliveryId: delivery.id, webhookId: delivery.webhookId, status: 'dropped' };
  }

  // Asked before anything else, and again once the receiver's connection is open, just before the
  // event is written: an erasure in between (the receiver slow to connect) withdraws it too.
  async function deliver(delivery: WebhookDelivery): Promise<DeliveryOutcome> {
    const stillWanted = async () => !(await carriesErased(store, delivery));
    if (!(await stillWanted())) return dropErased(delivery);
    const webhook = await store.webhooks.findById(delivery.webhookId);
    if (!webhook) return settle(delivery, 'failed', { responseStatus: null, error: 'webhook deleted' });
    if (!webhook.enabled) {
      return settle(delivery, 'failed', { responseStatus: null, error: `webhook disabled: ${webhook.disabledReason}` });
    }
    const headers = signedHeaders(webhook.secret, delivery.id, delivery.body, now());
    let responseStatus: number | typeof WITHDRAWN;
    try {
      responseStatus = await post(new URL(webhook.url), headers, delivery.body, { allowPrivate, timeoutMs, stillWanted });
    } catch (error) {
      return failed(webhook, delivery, null, reasonOf(error));
    }
    if (responseStatus === WITHDRAWN) return dropErased(delivery);
    if (responseStatus < 200 || responseStatus > 299) {
      return failed(webhook, delivery, responseStatus, `the receiver answered ${responseStatus}`);
    }
    const outcome = await settle(delivery, 'delivered', { responseStatus, error: null });
    await store.webhooks.noteSuccess(webhook.id);
    return outcome;
  }

  async function tick(): Promise<DeliveryOutcome[]> {
    await announceNewLeads();
    await announceNewGroups();
    const at = now();
    const due = await store.webhookOutbox.claimDue({
      now: at,
      claimedBy: processId,
      leaseUntil: new Date(at.getTime() + leaseMs),
      limit: DELIVERIES_PER_PASS,
    });
    const sends = await Promise.allSettled(due.map(deliver));
    return sends.flatMap((send, index) => {
      if (send.status === 'fulfilled') return [send.value];
      // The store failed while recording: the lease ends and another pass tries again.
      log.error({ err: send.reason, eventId: due[index]?.id }, 'webhook delivery could not be recorded');
      return [];
    });
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;

  function loop(): void {
    running = tick().then(
      (outcomes) => outcomes.length,
      (error: unknown) => {
        log.error({ err: error }, 'webhook pass failed');
        return 0;
      },
    );
    void running.then((sent) => {
      // A full pass may have left more behind: go again at once.
      if (!stopped) timer = setTimeout(loop, sent >= DELIVERIES_PER_PASS ? 0 : (options.pollMs ?? POLL_MS));
    });
  }

  return {
    processId,
    tick,
    start() {
      if (!stopped) return;
      stopped = false;
      log.info('webhook delivery started');
      loop();
    },
    async stop(graceMs = STOP_GRACE_MS) {
      stopped = true;
      clearTimeout(timer);
      await waitAtMost(running, graceMs);
    },
  };
}
