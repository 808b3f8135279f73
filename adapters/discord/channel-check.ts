import { PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import type { ChannelCheck, ChannelNeed } from '../commands.js';

// Whether the bot can do what `/chatbot use` and `/chatbot digest on` need where they were typed.
// Discord runs a slash command wherever the member may, whether or not the bot can see the
// channel (a channel only the team sees, the bot not added): a binding there brings the bot no
// message, and a digest posted there fails every day (Missing Access). Both read the bot's
// permissions there, which the interaction carries, and refuse.

/** What each needs: to see the channel and answer in it (as a reply), or post the digest's embed with its CSV. */
const NEEDED: Record<ChannelNeed, { permissions: bigint[]; subcommand: string; doing: string }> = {
  answer: {
    permissions: [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages, PermissionFlagsBits.ReadMessageHistory],
    subcommand: 'use',
    doing: 'answer',
  },
  digest: {
    permissions: [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages, PermissionFlagsBits.EmbedLinks, PermissionFlagsBits.AttachFiles],
    subcommand: 'digest on',
    doing: 'post the digest',
  },
};

/** What `use` or `digest on` answers where the bot lacks permissions, named as Discord's settings name them. */
export const lacksPermissionsText = (need: ChannelNeed, missing: string[]) =>
  `I can't ${NEEDED[need].doing} in this channel: I lack ${missing.join(', ')} here. ` +
  `Give me (or my role) those permissions in the channel's settings, then run \`/chatbot ${NEEDED[need].subcommand}\` again.`;

/** Refused where the bot lacks a permission `need` takes (a DM's are the bot's own). */
export function checkChannel(interaction: ChatInputCommandInteraction, need: ChannelNeed): ChannelCheck {
  if (!interaction.inGuild()) return { everyoneSees: false };
  const missing = interaction.appPermissions.missing(NEEDED[need].permissions);
  if (missing.length > 0) return { refusal: lacksPermissionsText(need, missing.map((name) => name.replace(/(?<=[a-z])(?=[A-Z])/g, ' '))) };
  return { everyoneSees: readableByEveryone(interaction.channel) };
}

/** Whether the server's @everyone may view the channel (a thread: its parent's). */
function readableByEveryone(channel: ChatInputCommandInteraction['channel']): boolean {
  const inServer = channel?.isThread() ? channel.parent : channel;
  if (!inServer || inServer.isDMBased()) return false;
  return inServer.permissionsFor(inServer.guild.roles.everyone).has(PermissionFlagsBits.ViewChannel);
}
