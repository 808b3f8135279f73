import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { Store } from '../src/store/port.js';
import { waitAtMost } from './grace.js';

// Hourly store upkeep. The repair (Store.repair): on MongoDB without transactions it recomputes
// counters and removes what a crash between two writes left behind. Then done handoff notices and
// webhook deliveries past their retention are removed. Any number of processes may run it.

const HOURLY = '17 * * * *';
/**
 * How long a stop waits for a pass in progress. The MongoDB repair waits 30 s between its two
 * reads, and a stop that waited it out would outlast a container's grace period; a pass cut short
 * is finished by the next one, as after a crash.
 */
const STOP_GRACE_MS = 5_000;

/**
 * How long a done handoff notice is kept. An adapter marks a notice done again at most a lease
 * (5 minutes) after its claim; the rest is a month to look into what was posted. The notices
 * still needed (a current handoff's request, which its thread is found by) are kept longer.
 */
export const DONE_NOTICE_RETENTION_MS = 30 * 24 * 60 * 60_000;

/**
 * How long a webhook delivery done (delivered, or failed for good) stays in the delivery log: a
 * month to look into what was sent. Its body holds what the event was about (a lead's name, email
 * and phone), which nobody needs kept longer.
 */
export const DONE_DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60_000;

export type Maintenance = { stop(graceMs?: number): Promise<void> };

/** One pass: the repair, then the prunes of done handoff notices and webhook deliveries. */
export async function maintainStore(store: Store, log: Logger, now = new Date()): Promise<void> {
  const report = await store.repair({ now });
  if (report.counters > 0 || report.orphans > 0) log.warn(report, 'store repaired after an interrupted write');
  const notices = await store.handoffNotices.prune(new Date(now.getTime() - DONE_NOTICE_RETENTION_MS));
  if (notices > 0) log.info({ notices }, 'done handoff notices removed');
  const deliveries = await store.webhookOutbox.prune(new Date(now.getTime() - DONE_DELIVERY_RETENTION_MS));
  if (deliveries > 0) log.info({ deliveries }, 'done webhook deliveries removed');
}

export function startMaintenance(store: Store, logger: Logger, { schedule = HOURLY } = {}): Maintenance {
  const log = logger.child({ job: 'store-repair' });
  let running: Promise<void> | undefined;
  const maintain = () => {
    running ??= maintainStore(store, log)
      .catch((error: unknown) => log.error({ err: error }, 'store repair failed'))
      .finally(() => (running = undefined));
  };
  const task: ScheduledTask = cron.schedule(schedule, maintain, { name: 'store-repair' });
  return {
    async stop(graceMs = STOP_GRACE_MS) {
      await task.destroy();
      await waitAtMost(running, graceMs);
    },
  };
}
