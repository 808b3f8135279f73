import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { startNoticePoller, type NoticePoller } from '../handoff-notices.js';
import type { HandoffNotice, HandoffThread, HubClient } from '../hub-client.js';
import { closedText, personMessages, redraw, rootMessage, toPerson } from './handoff-message.js';
import { countSlackError } from './metrics.js';

// The hub's handoff notices, posted in Slack (the shared poller leases them): a request starts a
// thread in the chatbot's handoff channel (its root message), the person's messages follow in it,
// and the handoff's end is said there and takes the buttons off the root. What the team tells a
// person talking to the chatbot in Slack goes to their thread.

export type HandoffNoticesOptions = {
  hub: HubClient;
  client: webApi.WebClient;
  /** The workspaces the bot token posts in (its team), or undefined for every one (an org-wide install). */
  workspaceIds: string[] | undefined;
  logger: Logger;
  intervalMs?: number;
};

export function startHandoffNotices({ hub, client, workspaceIds, logger, intervalMs }: HandoffNoticesOptions): NoticePoller {
  /** The request as the thread's root message; its ts is the thread's id. */
  async function startThread(notice: HandoffNotice): Promise<HandoffThread> {
    const posted = await client.chat.postMessage({
      channel: notice.channel.channelId,
      ...rootMessage(notice),
      unfurl_links: false,
      unfurl_media: false,
    });
    if (!posted.ts) throw new Error('chat.postMessage answered without a ts');
    return { channelId: posted.channel ?? notice.channel.channelId, threadId: posted.ts };
  }

  async function postInThread(notice: HandoffNotice, thread: HandoffThread): Promise<void> {
    const say = (text: string) =>
      client.chat.postMessage({ channel: thread.channelId, thread_ts: thread.threadId, text, unfurl_links: false, unfurl_media: false });
    if (notice.kind === 'message') {
      for (const part of personMessages(notice.text ?? '')) await say(part);
      return;
    }
    await say(closedText(notice.handoff));
    await redraw(client, { channel: thread.channelId, ts: thread.threadId }, notice.handoff, logger);
  }

  async function tellPerson(notice: HandoffNotice): Promise<void> {
    for (const text of toPerson(notice)) {
      await client.chat.postMessage({
        channel: notice.channel.channelId,
        ...(notice.thread && { thread_ts: notice.thread.threadId }),
        text,
        mrkdwn: false,
        link_names: false,
        unfurl_links: false,
        unfurl_media: false,
      });
    }
  }

  /** A Web API call that fails is counted, then the poller logs it and leaves the notice to be offered again. */
  async function counted<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      countSlackError(error);
      throw error;
    }
  }

  return startNoticePoller({
    hub,
    platform: 'slack',
    workspaceIds: () => workspaceIds,
    logger,
    intervalMs,
    poster: {
      startThread: (notice) => counted(startThread(notice)),
      postInThread: (notice, thread) => counted(postInThread(notice, thread)),
      tellPerson: (notice) => counted(tellPerson(notice)),
    },
  });
}
