import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { countSlackError, platformError } from './metrics.js';

// Whether the bot can post a lead digest where `/chatbot digest on` was typed. Slack runs a slash
// command in any channel, the bot a member or not, but a digest posted where the bot is not a
// member fails every day (not_in_channel; channel_not_found for a private one), so `digest on`
// asks conversations.info first and refuses there.

/** What `digest on` answers in a channel the bot is not in. */
export const notInChannelText = (botName: string, command: string) =>
  `I'm not in this channel, so I could not post the digest here. Invite me with \`/invite @${botName}\`, then run \`${command} digest on\` again.`;

/**
 * Why no digest can be posted in `channel`, or undefined when the bot is in it. When Slack cannot
 * say (an app installed before it had the channels:read scopes, a failure), the digest is taken
 * as before and the doubt is logged: a run that fails says why in its record and the log.
 */
export async function digestRefusal(client: webApi.WebClient, channel: string, command: string, logger: Logger): Promise<string | undefined> {
  try {
    const { channel: found } = await client.conversations.info({ channel });
    // The bot sees only its own direct messages, so one it can read is one it can post in.
    if (found?.is_member || found?.is_im) return undefined;
  } catch (error) {
    countSlackError(error);
    if (platformError(error) !== 'channel_not_found') {
      logger.warn({ err: error, channel }, 'could not tell whether the bot is in a channel; the digest is taken unchecked');
      return undefined;
    }
  }
  const { user } = await client.auth.test();
  return notInChannelText(user ?? 'Switchboard', command);
}
