import type { Logger } from 'pino';
import { newProcessId } from '../process-id.js';
import { digestRuns } from '../../src/metrics.js';
import type { Digest, DigestRunStatus, Lead, Platform, Store } from '../../src/store/port.js';
import { composeDigest, SHOWN_UNANSWERED } from './compose.js';
import { CATCH_UP_MS, type DueOccurrence } from './due.js';
import type { Poster, PostOutcome } from './post.js';
import type { DiscordTarget } from './post-discord.js';
import type { SlackTarget } from './post-slack.js';
import { DEFAULT_RETRY, realSleep, reasonOf, RetriesExhausted, type RetryPolicy, type Sleep } from './retry.js';

// One digest occurrence, start to end: claim the run record (so one clock process of any number
// runs it), gather the chatbot's leads since the previous digest, compose, post with retries, and
// record how it ended. Every outcome is recorded, including "nothing to post" and "too late".

/** How long a claim holds before another process may take over a run that never finished. */
const LEASE_MS = 10 * 60_000;
/** The first digest of a subscription covers this much before its scheduled instant. */
const FIRST_WINDOW_MS = 24 * 60 * 60_000;
const PAGE_SIZE = 500;

/** Where digests can be posted: a platform left out is not configured. */
export type DigestPlatforms = { slack?: SlackTarget; discord?: DiscordTarget };

/** The run was claimed and ended so; `busy`: another process holds or has done it. */
export type RunOutcome = DigestRunStatus | 'busy';

export type DigestRunnerOptions = {
  store: Store;
  platforms: DigestPlatforms;
  logger: Logger;
  now: () => Date;
  /** How retries wait (tests record instead of waiting). */
  sleep?: Sleep;
  /** Names this process in the run records. */
  processId?: string;
};

export type DigestRunner = {
  readonly processId: string;
  run(digest: Digest, occurrence: DueOccurrence): Promise<RunOutcome>;
};

const NOT_CONFIGURED: Record<Platform, string> = {
  slack: 'Slack is not configured: set SLACK_BOT_TOKEN for the process that posts digests',
  discord: 'Discord is not configured: set DISCORD_TOKEN for the process that posts digests',
};

export function createDigestRunner(options: DigestRunnerOptions): DigestRunner {
  const { store, platforms, logger, now } = options;
  const processId = options.processId ?? newProcessId();
  const policy: RetryPolicy = { ...DEFAULT_RETRY, sleep: options.sleep ?? realSleep };
  // Each platform's client is loaded on its first digest: `npm start` does not pay for them otherwise.
  const { slack, discord } = platforms;
  const loaders: Partial<Record<Platform, () => Promise<Poster>>> = {
    ...(slack ? { slack: async () => (await import('./post-slack.js')).slackPoster(slack, policy) } : {}),
    ...(discord ? { discord: async () => (await import('./post-discord.js')).discordPoster(discord, policy) } : {}),
  };
  const posters = new Map<Platform, Promise<Poster>>();
  const posterFor = (platform: Platform): Promise<Poster> => {
    const load = loaders[platform];
    if (!load) throw new Error(NOT_CONFIGURED[platform]);
    let poster = posters.get(platform);
    if (!poster) posters.set(platform, (poster = load()));
    return poster;
  };

  async function run(digest: Digest, occurrence: DueOccurrence): Promise<RunOutcome> {
    const { localDate, scheduledAt } = occurrence;
    const claimedAt = now();
    const claimed = await store.digestRuns.claim({
      digestId: digest.id,
      localDate,
      scheduledAt,
      claimedBy: processId,
      claimedAt,
      leaseUntil: new Date(claimedAt.getTime() + LEASE_MS),
    });
    if (!claimed) return 'busy';

    const log = logger.child({
      digestId: digest.id,
      chatbotId: digest.chatbotId,
      platform: digest.platform,
      channelId: digest.channelId,
      localDate,
    });
    const finish = async (status: DigestRunStatus, attempts: number, error?: string): Promise<RunOutcome> => {
      await store.digestRuns.finish(digest.id, localDate, { status, attempts, error, finishedAt: now() });
      digestRuns.inc({ platform: digest.platform, status });
      if (status === 'failed' || status === 'missed') log.warn({ status, attempts, error }, 'lead digest not posted');
      else log.info({ status, attempts, ...(error ? { error } : {}) }, `lead digest ${status}`);
      return status;
    };

    // Set once the message is in the channel: from then on the run can only be recorded as posted.
    let posted: PostOutcome | undefined;
    try {
      if (occurrence.missed) {
        const hours = CATCH_UP_MS / 3_600_000;
        return await finish('missed', 0, `no clock process ran within ${hours} hours of ${scheduledAt.toISOString()}`);
      }
      if (!loaders[digest.platform]) return await finish('failed', 0, NOT_CONFIGURED[digest.platform]);
      const chatbot = await store.chatbots.find(digest.accountId, digest.chatbotId);
      if (!chatbot) return await finish('failed', 0, `chatbot ${digest.chatbotId} not found`);

      // Since the previous digest (posted or found empty), else the last day; up to this one's instant.
      const previous = await store.digestRuns.lastPosted(digest.id);
      const from = previous ?? new Date(scheduledAt.getTime() - FIRST_WINDOW_MS);
      const leads = await gatherLeads(store, digest.chatbotId, previous ? new Date(from.getTime() + 1) : from, scheduledAt);
      const window = { from, to: scheduledAt, status: 'open' as const };
      const unanswered = {
        count: await store.unanswered.count(digest.chatbotId, window),
        top: await store.unanswered.list(digest.chatbotId, window, { page: 1, size: SHOWN_UNANSWERED }),
      };
      if (leads.length === 0 && unanswered.count === 0 && !digest.postWhenEmpty) return await finish('skipped', 0);

      const message = composeDigest({
        chatbotName: chatbot.name,
        timezone: digest.timezone,
        localDate,
        from,
        to: scheduledAt,
        leads,
        unanswered,
      });
      // Loaded only now: a day without leads posts nothing and needs no platform client.
      const poster = await posterFor(digest.platform);
      try {
        posted = await poster(digest, message);
      } catch (error) {
        const attempts = error instanceof RetriesExhausted ? error.attempts : 1;
        return await finish('failed', attempts, reasonOf(error));
      }
      return await finish('posted', posted.attempts, posted.warning);
    } catch (error) {
      // The store failed mid-run. Recorded if it can be; if not, the run stays claimed and another
      // tick takes it over when the lease ends.
      const result = posted
        ? { status: 'posted' as const, attempts: posted.attempts, error: posted.warning }
        : { status: 'failed' as const, attempts: 0, error: reasonOf(error) };
      await store.digestRuns.finish(digest.id, localDate, { ...result, finishedAt: now() }).catch(() => undefined);
      throw error;
    }
  }

  return { processId, run };
}

/** Every lead of the chatbot created in [from, to], newest first, a page at a time. */
async function gatherLeads(store: Store, chatbotId: string, from: Date, to: Date): Promise<Lead[]> {
  const leads: Lead[] = [];
  for (let page = 1; ; page += 1) {
    const batch = await store.leads.list(chatbotId, { from, to }, { page, size: PAGE_SIZE });
    leads.push(...batch);
    if (batch.length < PAGE_SIZE) return leads;
  }
}
