import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { DigestChannelCheck } from '../commands.js';
import { countSlackError, platformError } from './metrics.js';

// Whether the bot can post a lead digest where `/chatbot digest on` was typed. Slack runs a slash
// command in any channel, the bot a member or not, but a digest posted where the bot is not a
// member fails every day (not_in_channel; channel_not_found for a private one), so `digest on`
// asks conversations.info first and refuses there.

/** What `digest on` answers in a channel the bot is not in. */
export const notInChannelText = (botName: string, command: string) =>
  `I'm not in this channel, so I could not post the digest here. Invite me with \`/invite @${botName}\`, then run \`${command} digest on\` again.`;

/** What `digest on` adds when an install without the read scopes cannot check the channel. */
export const missingScopesText = (botName: string) =>
  "I couldn't check that I'm in this channel: this install of the app lacks the permissions to read channels " +
  '(channels:read, groups:read, im:read, mpim:read). Reinstall the app to your workspace to grant them. ' +
  `Until then, if I'm not in this channel, invite me with \`/invite @${botName}\`, or the digest cannot be posted.`;

/**
 * Whether a digest can be posted in `channel`: refused where the bot is not in it. Where Slack
 * cannot say, the digest is taken as before and the doubt logged; an app installed before it had
 * the channels:read scopes (missing_scope) is the admin's to fix, so the answer says how.
 */
export async function checkDigestChannel(
  client: webApi.WebClient,
  channel: string,
  command: string,
  logger: Logger,
): Promise<DigestChannelCheck | undefined> {
  try {
    const { channel: found } = await client.conversations.info({ channel });
    // The bot sees only its own direct messages, so one it can read is one it can post in.
    if (found?.is_member || found?.is_im) return undefined;
  } catch (error) {
    countSlackError(error);
    const code = platformError(error);
    if (code !== 'channel_not_found') {
      logger.warn({ err: error, channel }, 'could not tell whether the bot is in a channel; the digest is taken unchecked');
      return code === 'missing_scope' ? { doubt: missingScopesText(await botName(client)) } : undefined;
    }
  }
  return { refusal: notInChannelText(await botName(client), command) };
}

async function botName(client: webApi.WebClient): Promise<string> {
  const { user } = await client.auth.test();
  return user ?? 'Switchboard';
}
