import cron, { type ScheduledTask } from 'node-cron';
import type { Config } from '../src/config.js';
import type { Digest } from '../src/store/port.js';
import { dueOccurrence, type DueOccurrence } from './digest/due.js';
import { createDigestRunner, type DigestPlatforms, type DigestRunnerOptions, type RunOutcome } from './digest/run.js';

// The clock: node-cron fires a tick every minute; a tick runs every digest subscription that is
// due, each on its own (one failing never holds up another). Any number of processes may run a
// scheduler on one store: the run records decide who posts. The clock is injected, so a test
// ticks at any instant it likes.

const EVERY_MINUTE = '* * * * *';
/** Longer than any occurrence stays due (today's or yesterday's), so a settled run is not retried. */
const SETTLED_MS = 2 * 24 * 3_600_000;
/** How long stop() lets runs in progress finish (a process manager kills soon after SIGTERM). */
const STOP_GRACE_MS = 5_000;

export type TickResult = { digestId: string; localDate: string; outcome: RunOutcome | 'error'; error?: string };

export type SchedulerOptions = Omit<DigestRunnerOptions, 'now'> & {
  now?: () => Date;
  /** node-cron expression; every minute unless given (tests use seconds). */
  cron?: string;
};

export type Scheduler = {
  /** Runs what is due at `now()`; resolves when every run it started has ended. */
  tick(): Promise<TickResult[]>;
  /** Ticks at once (catching up what was missed while no clock ran), then on the cron schedule. */
  start(): void;
  /**
   * Stops ticking and waits for runs in progress, at most `graceMs`. A run cut short stays claimed
   * and unfinished; another clock takes it over when its lease ends.
   */
  stop(graceMs?: number): Promise<void>;
};

/** Where this process can post digests, from its configuration. */
export function digestPlatforms(config: Pick<Config, 'slack' | 'discord'>): DigestPlatforms {
  return {
    ...(config.slack ? { slack: { botToken: config.slack.botToken, apiUrl: config.slack.apiUrl } } : {}),
    ...(config.discord ? { discord: { token: config.discord.token, apiUrl: config.discord.apiUrl } } : {}),
  };
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { store, logger } = options;
  const now = options.now ?? (() => new Date());
  const runner = createDigestRunner({ ...options, now });
  const log = logger.child({ job: 'digests', process: runner.processId });

  // Runs this process need not try to claim again before a time (ms): those it finished, or saw
  // finished, until the day is long past; those another process holds, until that lease could end.
  // Saves a write per subscription per minute; the store stays the only judge.
  const settledUntil = new Map<string, number>();
  const inFlight = new Set<string>();
  const ticks = new Set<Promise<unknown>>();
  let task: ScheduledTask | undefined;

  const keyOf = (digest: Digest, occurrence: DueOccurrence) => `${digest.id}/${occurrence.localDate}`;

  async function runOne(digest: Digest, occurrence: DueOccurrence, key: string): Promise<TickResult> {
    const result = { digestId: digest.id, localDate: occurrence.localDate };
    inFlight.add(key);
    try {
      const outcome = await runner.run(digest, occurrence);
      const settledAt = now().getTime();
      if (outcome !== 'busy') settledUntil.set(key, settledAt + SETTLED_MS);
      else {
        const record = await store.digestRuns.find(digest.id, occurrence.localDate);
        const until = record?.status ? settledAt + SETTLED_MS : (record?.leaseUntil.getTime() ?? settledAt);
        settledUntil.set(key, until);
      }
      return { ...result, outcome };
    } catch (error) {
      log.error({ err: error, digestId: digest.id, localDate: occurrence.localDate }, 'lead digest run failed');
      return { ...result, outcome: 'error', error: error instanceof Error ? error.message : String(error) };
    } finally {
      inFlight.delete(key);
    }
  }

  async function tick(): Promise<TickResult[]> {
    const at = now();
    for (const [key, until] of settledUntil) if (until <= at.getTime()) settledUntil.delete(key);
    const digests = await store.digests.listAll();
    const runs: Promise<TickResult>[] = [];
    for (const digest of digests) {
      let occurrence: DueOccurrence | undefined;
      try {
        occurrence = dueOccurrence(digest, at);
      } catch (error) {
        log.warn({ err: error, digestId: digest.id }, 'lead digest has an unusable schedule');
        continue;
      }
      if (!occurrence) continue;
      const key = keyOf(digest, occurrence);
      if (inFlight.has(key) || (settledUntil.get(key) ?? 0) > at.getTime()) continue;
      runs.push(runOne(digest, occurrence, key));
    }
    // runOne never rejects; allSettled keeps it so should that change.
    const settled = await Promise.allSettled(runs);
    return settled.flatMap((item) => (item.status === 'fulfilled' ? [item.value] : []));
  }

  function fire(): void {
    const running = tick().catch((error: unknown) => log.error({ err: error }, 'lead digest tick failed'));
    ticks.add(running);
    void running.finally(() => ticks.delete(running));
  }

  return {
    tick,
    start() {
      if (task) return;
      // Overlapping ticks are fine: a run in progress is skipped by the next tick.
      task = cron.schedule(options.cron ?? EVERY_MINUTE, fire, {
        name: 'lead-digests',
        noOverlap: false,
        // node-cron's own notes (a tick missed while the event loop was blocked) go to our log.
        logger: {
          debug: (message) => log.debug(String(message)),
          info: (message) => log.info(message),
          warn: (message) => log.warn(message),
          error: (message) => log.error(String(message)),
        },
      });
      log.info({ cron: options.cron ?? EVERY_MINUTE }, 'lead digest scheduler started');
      fire();
    },
    async stop(graceMs = STOP_GRACE_MS) {
      if (task) {
        await task.destroy();
        task = undefined;
      }
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled([...ticks]), grace]);
      clearTimeout(timer);
    },
  };
}
