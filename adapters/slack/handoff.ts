import type { App, webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { HubApiError, isOpenHandoff, type HandoffInThread, type HandoffState, type HubClient } from '../hub-client.js';
import { isHandoffRequest, redraw, RESOLVE_ACTION_ID, TAKE_ACTION_ID, type RootMessage } from './handoff-message.js';
import { countSlackError } from './metrics.js';
import { plainText } from './text.js';
import type { UserDirectory } from './users.js';

// The team's side of a handoff in Slack: "Take" and "Resolve" on the root message, and replies
// in its thread, which go to the person under the replier's display name. A click or a reply is
// tied to its handoff only through the thread (the hub's findHandoffByThread): a thread that is
// not a handoff's is never relayed, and the chatbot never answers in one that is.

/** The name a team member is shown under when Slack will not say theirs. */
const TEAM_MEMBER = 'Team member';
export const HANDOFF_CLOSED = 'This handoff is closed: the person is back with the chatbot and no longer receives replies here.';
export const REPLY_NOT_DELIVERED = 'Your reply did not reach the person: the chatbot hub is unreachable. Please send it again.';
export const CLICK_FAILED = 'That did not work: the chatbot hub is unreachable. Please try again.';

export type HandoffDeps = { hub: () => HubClient | undefined; users: UserDirectory; logger: Logger };

/** A person's message in a thread, as the message handler has it. */
export type ThreadReply = {
  channel: string;
  ts: string;
  threadTs: string;
  user: string;
  text: string;
  botUserId: string | undefined;
  /** The thread's parent is the bot's own message (as every handoff request is). */
  ownThread: boolean;
  client: webApi.WebClient;
  /** Takes the message for this instance (false: another instance or event has it). */
  claim: () => Promise<boolean>;
};

/**
 * Relays a reply in a handoff's thread to the person, once across instances; answers whether
 * the thread is a handoff's (then the message is settled here, relayed or not). Throws when
 * the hub cannot say.
 */
export type HandoffReplies = (reply: ThreadReply) => Promise<boolean>;

const isGone = (error: unknown) => error instanceof HubApiError && error.status === 404;

export function createHandoffReplies({ hub: currentHub, users, logger }: HandoffDeps): HandoffReplies {
  return async (reply) => {
    const hub = currentHub();
    if (!hub) return false;
    const { channel, threadTs, client } = reply;
    const tell = (message: string) => whisper(client, { channel, user: reply.user, threadTs }, message, logger);
    let found: HandoffInThread | undefined;
    try {
      found = await hub.findHandoffByThread({ platform: 'slack', channelId: channel, threadId: threadTs });
    } catch (error) {
      // Under the bot's own message this is most likely the team answering: say it did not arrive.
      if (!reply.ownThread) throw error;
      logger.error({ err: error, channel, threadTs }, 'could not look up a Slack thread as a handoff');
      await tell(REPLY_NOT_DELIVERED);
      return true;
    }
    if (!found) {
      // An earlier handoff's thread is no longer the conversation's, and still not the chatbot's.
      if (!reply.ownThread || !(await isEarlierRequest(client, channel, threadTs, logger))) return false;
      if (await reply.claim()) await tell(HANDOFF_CLOSED);
      return true;
    }
    const text = plainText(reply.text, reply.botUserId);
    if (!text || !(await reply.claim())) return true;
    if (!isOpenHandoff(found.handoff)) {
      await tell(HANDOFF_CLOSED);
      return true;
    }
    try {
      const name = await displayName(users, reply.user);
      const state = await hub.replyInHandoff(found.chatbotId, found.conversationId, name, text);
      // The first reply takes a pending handoff: the root message says by whom.
      if (found.handoff.status === 'pending') await redraw(client, { channel, ts: threadTs }, state, logger);
    } catch (error) {
      if (isGone(error)) {
        await tell(HANDOFF_CLOSED);
        return true;
      }
      logger.error({ err: error, conversationId: found.conversationId }, 'could not relay a reply in a Slack handoff thread');
      await tell(REPLY_NOT_DELIVERED);
    }
    return true;
  };
}

type ButtonAction = (hub: HubClient, found: HandoffInThread, userId: string) => Promise<HandoffState>;

/** Registers "Take" (the clicker's display name takes the handoff) and "Resolve" on handoff root messages. */
export function listenForHandoffButtons(app: App, { hub: currentHub, users, logger }: HandoffDeps): void {
  const actions: Record<string, ButtonAction> = {
    [TAKE_ACTION_ID]: async (hub, found, userId) => hub.takeHandoff(found.chatbotId, found.conversationId, await displayName(users, userId)),
    [RESOLVE_ACTION_ID]: (hub, found) => hub.resolveHandoff(found.chatbotId, found.conversationId),
  };
  for (const [actionId, act] of Object.entries(actions)) {
    app.action({ type: 'block_actions', action_id: actionId }, async ({ ack, body, client }) => {
      await ack();
      const hub = currentHub();
      // The button's message is the root: its channel and ts name the thread.
      const channel = body.channel?.id ?? String(body.container.channel_id ?? '');
      const ts = String(body.container.message_ts ?? body.message?.ts ?? '');
      if (!hub || !channel || !ts) return;
      const tell = (message: string) => whisper(client, { channel, user: body.user.id }, message, logger);
      let state: HandoffState;
      try {
        const found = await hub.findHandoffByThread({ platform: 'slack', channelId: channel, threadId: ts });
        if (!found) {
          // Only handoff requests have these buttons: this is an earlier handoff of the conversation.
          await tell(HANDOFF_CLOSED);
          return;
        }
        if (isOpenHandoff(found.handoff)) state = await act(hub, found, body.user.id);
        else {
          state = found.handoff;
          await tell(HANDOFF_CLOSED);
        }
      } catch (error) {
        if (isGone(error)) {
          // Closed meanwhile: its closed notice redraws the message.
          await tell(HANDOFF_CLOSED);
          return;
        }
        logger.error({ err: error, channel, ts }, `could not handle ${actionId} on a Slack handoff`);
        await tell(CLICK_FAILED);
        return;
      }
      const message = body.message as Partial<RootMessage> | undefined;
      await redraw(client, { channel, ts, text: message?.text, blocks: message?.blocks }, state, logger);
    });
  }
}

/** Whether a thread the bot started is a handoff request's; when Slack cannot say, it is taken as not. */
async function isEarlierRequest(client: webApi.WebClient, channel: string, ts: string, logger: Logger): Promise<boolean> {
  try {
    return await isHandoffRequest(client, channel, ts);
  } catch (error) {
    countSlackError(error);
    logger.warn({ err: error, channel, ts }, 'could not read the root of a Slack thread');
    return false;
  }
}

/** The team member's Slack display name (never anything else about them). */
async function displayName(users: UserDirectory, userId: string): Promise<string> {
  return (await users.person(userId))?.displayName ?? TEAM_MEMBER;
}

/** A message only `user` sees, in the thread when there is one. */
async function whisper(
  client: webApi.WebClient,
  { channel, user, threadTs }: { channel: string; user: string; threadTs?: string },
  text: string,
  logger: Logger,
): Promise<void> {
  await client.chat.postEphemeral({ channel, user, text, ...(threadTs && { thread_ts: threadTs }) }).catch((error: unknown) => {
    countSlackError(error);
    logger.warn({ err: error, channel }, 'could not tell a team member about a handoff');
  });
}
