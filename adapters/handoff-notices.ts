import type { Logger } from 'pino';
import type { HandoffNotice, HandoffThread, HubClient, Platform } from './hub-client.js';

// The hub's handoff notices for one platform, polled while an adapter runs: each pass leases a
// batch, posts every notice through the platform's poster, then marks it done. Any number of
// adapter processes may poll: the lease gives each notice to one of them, and one not marked done
// (a crash, the platform refusing) is offered again when its lease runs out. A batch holds at
// most one notice per conversation and audience (the hub leases only the oldest of the team's and
// of the person's), so its notices are posted at once: a slow or rate-limited post holds up no
// other conversation.

const NOTICE_POLL_MS = 1_000;
/** Notices leased per pass (a full batch is followed by another pass at once), and for how long. */
export const NOTICE_BATCH = 10;
const LEASE_SECONDS = 60;
/** How long stop() waits for the pass in progress; a notice cut short is offered again when its lease ends. */
const STOP_GRACE_MS = 5_000;

/**
 * How a platform posts notices: the request starts the handoff's thread, the rest go into it; a
 * reply goes to the person.
 */
export type NoticePoster = {
  /** Posts a `requested` notice and answers the thread it started. */
  startThread(notice: HandoffNotice): Promise<HandoffThread>;
  /** Posts a `message` or `closed` notice in the handoff's thread. */
  postInThread(notice: HandoffNotice, thread: HandoffThread): Promise<void>;
  /** Posts a `reply` notice where the person talks (its channel, and thread if it names one). */
  tellPerson(notice: HandoffNotice): Promise<void>;
};

export type NoticePollerOptions = {
  hub: Pick<HubClient, 'claimHandoffNotices' | 'completeHandoffNotice'>;
  platform: Platform;
  /**
   * The workspaces whose notices this process can post, asked before each claim; undefined
   * claims every workspace's.
   */
  workspaceIds?: () => string[] | undefined;
  poster: NoticePoster;
  logger: Logger;
  intervalMs?: number;
};

export type NoticePoller = {
  /** Stops polling and waits for the pass in progress (at most a few seconds). */
  stop(): Promise<void>;
};

/** Starts polling at once. */
export function startNoticePoller({ hub, platform, workspaceIds, poster, logger, intervalMs = NOTICE_POLL_MS }: NoticePollerOptions): NoticePoller {
  const log = logger.child({ feature: 'handoff notices', platform });
  let stopped = false;
  // The hub being unreachable is said once per outage, not every second.
  let failing = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function post(notice: HandoffNotice): Promise<void> {
    const { id: noticeId, kind, conversationId } = notice;
    try {
      if (kind === 'requested') {
        await hub.completeHandoffNotice(noticeId, await poster.startThread(notice));
        return;
      }
      if (kind === 'reply') {
        await poster.tellPerson(notice);
        await hub.completeHandoffNotice(noticeId);
        return;
      }
      // Without a thread (its request was never posted) there is nowhere to say it.
      if (notice.thread) await poster.postInThread(notice, notice.thread);
      else log.warn({ noticeId, kind, conversationId }, 'a handoff notice came without its thread: nothing posted');
      await hub.completeHandoffNotice(noticeId);
    } catch (error) {
      // Not marked done: its lease runs out and it is offered again.
      log.error({ err: error, noticeId, kind, conversationId }, 'could not post a handoff notice');
    }
  }

  /** One pass; answers how many notices it leased. */
  async function pass(): Promise<number> {
    const workspaces = workspaceIds?.();
    // In no workspace yet (a bot added to no server): nothing it could post.
    if (workspaces?.length === 0) return 0;
    let notices: HandoffNotice[];
    try {
      notices = await hub.claimHandoffNotices(platform, NOTICE_BATCH, LEASE_SECONDS, workspaces);
    } catch (error) {
      if (!failing) log.error({ err: error }, 'could not claim handoff notices from the hub');
      failing = true;
      return 0;
    }
    if (failing) log.info('handoff notices can be claimed again');
    failing = false;
    await Promise.all(notices.map(post));
    return notices.length;
  }

  function loop(): void {
    running = pass().then((leased) => {
      if (!stopped) timer = setTimeout(loop, leased === NOTICE_BATCH ? 0 : intervalMs);
    });
  }
  loop();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS)))]);
      clearTimeout(grace);
    },
  };
}
