import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { HandoffNotice, HandoffThread, HubClient } from '../hub-client.js';
import { closedText, personMessages, rootMessage, showState } from './handoff-message.js';
import { countSlackError } from './metrics.js';

// The hub's handoff notices for Slack, posted while the adapter runs: a request starts a thread
// in the chatbot's handoff channel (its root message), the person's messages follow in it, and
// the handoff's end is said there and takes the buttons off the root. Notices are leased from
// the hub, so any number of adapter processes may poll: each notice goes to one of them, and one
// not marked done (a crash, Slack refusing) is offered again when its lease runs out.

export const NOTICE_POLL_MS = 1_000;
/** Notices leased per poll, and for how long: enough for Slack's pace of about one post a second. */
const PER_POLL = 10;
const LEASE_SECONDS = 60;

export type NoticePoller = {
  start(): void;
  /** Stops polling and waits for the notices in hand. */
  stop(): Promise<void>;
};

export type NoticePollerOptions = { hub: HubClient; client: webApi.WebClient; logger: Logger; intervalMs?: number };

export function createNoticePoller({ hub, client, logger, intervalMs = NOTICE_POLL_MS }: NoticePollerOptions): NoticePoller {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  // The hub being unreachable is said once, not every second.
  let failing = false;

  /** Posts one notice; a `requested` one answers the thread it started. */
  async function post(notice: HandoffNotice): Promise<HandoffThread | undefined> {
    if (notice.kind === 'requested') {
      const posted = await client.chat.postMessage({
        channel: notice.channel.channelId,
        ...rootMessage(notice),
        unfurl_links: false,
        unfurl_media: false,
      });
      if (!posted.ts) throw new Error('chat.postMessage answered without a ts');
      return { channelId: posted.channel ?? notice.channel.channelId, threadId: posted.ts };
    }
    const thread = notice.thread;
    if (!thread) throw new Error(`a ${notice.kind} notice came without its thread`);
    const say = (text: string) =>
      client.chat.postMessage({ channel: thread.channelId, thread_ts: thread.threadId, text, unfurl_links: false, unfurl_media: false });
    if (notice.kind === 'message') {
      for (const part of personMessages(notice.text ?? '')) await say(part);
      return undefined;
    }
    await say(closedText(notice.handoff));
    await showState(client, { channel: thread.channelId, ts: thread.threadId }, notice.handoff).catch((error: unknown) => {
      // The thread says how it ended; stale buttons only answer that it is closed.
      countSlackError(error);
      logger.warn({ err: error, ...thread }, 'could not take the buttons off a closed Slack handoff');
    });
    return undefined;
  }

  async function poll(): Promise<void> {
    let notices: HandoffNotice[];
    try {
      notices = await hub.claimHandoffNotices('slack', PER_POLL, LEASE_SECONDS);
      if (failing) logger.info('handoff notices can be claimed again');
      failing = false;
    } catch (error) {
      if (!failing) logger.error({ err: error }, 'could not claim handoff notices from the hub');
      failing = true;
      return;
    }
    for (const notice of notices) {
      if (stopped) return;
      try {
        const thread = await post(notice);
        await hub.completeHandoffNotice(notice.id, thread);
      } catch (error) {
        countSlackError(error);
        const { id: noticeId, kind, conversationId } = notice;
        logger.error({ err: error, noticeId, kind, conversationId }, 'could not post a handoff notice to Slack');
      }
    }
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = poll().finally(() => {
        running = undefined;
        schedule();
      });
    }, intervalMs);
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
