import type { Logger } from 'pino';
import { newProcessId } from './process-id.js';
import { waitAtMost } from './grace.js';
import { settleTimeout } from '../src/domain/handoff.js';
import type { HandoffStatus, Store } from '../src/store/port.js';

// Handoff timeouts: a request nobody took within waitMinutes is missed, a handoff the team left
// quiet for idleMinutes is resolved. Any number of processes may run this on one store: each due
// handoff is leased to one of them, and a settlement applies only while the handoff is still due
// at the instant it was claimed for (a team message in between moves it on).

const PER_PASS = 50;
const POLL_MS = 1_000;
const LEASE_MS = 60_000;
const STOP_GRACE_MS = 5_000;

export type HandoffTimerOptions = {
  store: Store;
  logger: Logger;
  now?: () => Date;
  pollMs?: number;
  processId?: string;
};

export type HandoffTimeout = { chatbotId: string; conversationId: string; status: HandoffStatus };

export type HandoffTimer = {
  /** One pass: settles what is due at `now()`. */
  tick(): Promise<HandoffTimeout[]>;
  start(): void;
  /** Stops polling and waits for the pass in progress, at most `graceMs`. */
  stop(graceMs?: number): Promise<void>;
};

export function createHandoffTimer(options: HandoffTimerOptions): HandoffTimer {
  const { store } = options;
  const now = options.now ?? (() => new Date());
  const processId = options.processId ?? newProcessId();
  const log = options.logger.child({ job: 'handoffs', process: processId });

  async function tick(): Promise<HandoffTimeout[]> {
    const at = now();
    const due = await store.handoffs.claimDue({ now: at, claimedBy: processId, leaseUntil: new Date(at.getTime() + LEASE_MS), limit: PER_PASS });
    const settled: HandoffTimeout[] = [];
    for (const handoff of due) {
      const { chatbotId, conversationId } = handoff;
      try {
        const status = await settleTimeout(store, handoff, now());
        if (status) settled.push({ chatbotId, conversationId, status });
      } catch (error) {
        // The lease ends and a later pass tries again.
        log.error({ err: error, chatbotId, conversationId }, 'handoff timeout could not be settled');
      }
    }
    return settled;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;

  function loop(): void {
    running = tick()
      .catch((error: unknown) => log.error({ err: error }, 'handoff timeout pass failed'))
      .then(() => {
        if (!stopped) timer = setTimeout(loop, options.pollMs ?? POLL_MS);
      });
  }

  return {
    tick,
    start() {
      if (!stopped) return;
      stopped = false;
      loop();
    },
    async stop(graceMs = STOP_GRACE_MS) {
      stopped = true;
      clearTimeout(timer);
      await waitAtMost(running, graceMs);
    },
  };
}
