import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { ChannelCheck, ChannelNeed } from '../commands.js';
import { countSlackError, platformError } from './metrics.js';

// Whether the bot can do what `/chatbot use` and `/chatbot digest on` need where they were typed.
// Slack runs a slash command in any conversation, the bot a member or not; but a channel the bot
// is not in never sends it a message (a binding there answers none), and a digest posted there
// fails every day (not_in_channel; channel_not_found for a private one). So both ask
// conversations.info first and refuse there. A direct message between people (a DM or a group
// DM the app is not in) is one it cannot be added to: Slack answers channel_not_found for it, and
// the command's channel_name tells it from a private channel.

/** What the command would have done there, in the refusals' words. */
const DOING: Record<ChannelNeed, { subcommand: string; what: string }> = {
  answer: { subcommand: 'use', what: "I would not see its messages, and the chatbot couldn't answer them" },
  digest: { subcommand: 'digest on', what: 'I could not post the digest here' },
};

/** What `use` or `digest on` answers in a channel the bot is not in. */
export const notInChannelText = (need: ChannelNeed, botName: string, command: string) =>
  `I'm not in this channel, so ${DOING[need].what}. Invite me with \`/invite @${botName}\`, then run \`${command} ${DOING[need].subcommand}\` again.`;

/** Where else to turn, in a direct message between people. */
const INSTEAD: Record<ChannelNeed, (command: string) => string> = {
  answer: () => 'To talk with the chatbot, message me directly, or mention me in a channel I am in.',
  digest: (command) => `Run \`${command} digest on\` in a channel only your team sees, with me in it, or in your direct message with me.`,
};

/** What `use` or `digest on` answers in a DM or group DM the app is not in (and cannot be added to). */
export const betweenPeopleText = (need: ChannelNeed, command: string) =>
  `This is a direct message between people, which I cannot be added to, so ${DOING[need].what}. ${INSTEAD[need](command)}`;

/** What an unchecked channel may keep from the command: a digest's leads may also be on show to all. */
const UNCHECKED: Record<ChannelNeed, string> = {
  answer: 'I cannot answer here.',
  digest:
    "the digest cannot be posted. Nor could I check whether everyone in the workspace can read this channel: if they can, they can read the leads' names, emails and phones too, and a channel only your team sees is the place for the digest.",
};

/** What `use` or `digest on` adds when an install without the read scopes cannot check the channel. */
export const missingScopesText = (need: ChannelNeed, botName: string) =>
  "I couldn't check that I'm in this channel: this install of the app lacks the permissions to read channels " +
  '(channels:read, groups:read, im:read, mpim:read). Reinstall the app to your workspace to grant them. ' +
  `Until then, if I'm not in this channel, invite me with \`/invite @${botName}\`, or ${UNCHECKED[need]}`;

/** Where the command was typed, as its payload names it. */
export type CommandChannel = { id: string; name: string };

/** A DM (channel_name `directmessage`) or group DM (`mpdm-…`): none takes an app added later. */
const isDirectMessage = (channel: CommandChannel) => channel.name === 'directmessage' || channel.name.startsWith('mpdm-');

/**
 * Whether the bot can do what `need` takes in `channel`: refused where it is not in it. Where
 * Slack cannot say, the command goes ahead as before and the doubt is logged; an app installed
 * before it had the channels:read scopes (missing_scope) is the admin's to fix, so the answer says how.
 */
export async function checkChannel(
  client: webApi.WebClient,
  channel: CommandChannel,
  need: ChannelNeed,
  command: string,
  logger: Logger,
): Promise<ChannelCheck> {
  try {
    const { channel: found } = await client.conversations.info({ channel: channel.id });
    // The bot sees only its own direct messages, so one it can read is one it can post in.
    if (found?.is_im) return { everyoneSees: false };
    // Not private: a public channel, which everyone in the workspace may read (guests aside).
    if (found?.is_member) return { everyoneSees: found.is_private === false };
  } catch (error) {
    countSlackError(error);
    const code = platformError(error);
    if (code !== 'channel_not_found') {
      logger.warn({ err: error, channel: channel.id }, 'could not tell whether the bot is in a channel; the command goes ahead unchecked');
      return code === 'missing_scope' ? { everyoneSees: false, doubt: missingScopesText(need, await botName(client)) } : { everyoneSees: false };
    }
  }
  if (isDirectMessage(channel)) return { refusal: betweenPeopleText(need, command) };
  return { refusal: notInChannelText(need, await botName(client), command) };
}

async function botName(client: webApi.WebClient): Promise<string> {
  const { user } = await client.auth.test();
  return user ?? 'Switchboard';
}
