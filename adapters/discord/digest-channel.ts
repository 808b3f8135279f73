import { PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import type { DigestChannelCheck } from '../commands.js';

// Whether the bot can post a lead digest where `/chatbot digest on` was typed. Discord runs a
// slash command wherever the member may, whether or not the bot can see the channel (a channel
// only the team sees, the bot not added), and a digest posted there fails every day (Missing
// Access): `digest on` reads the bot's permissions there, which the interaction carries, and refuses.

/** What the digest needs: to see the channel and post its embed with the CSV attached. */
const DIGEST_PERMISSIONS = [
  PermissionFlagsBits.ViewChannel,
  PermissionFlagsBits.SendMessages,
  PermissionFlagsBits.EmbedLinks,
  PermissionFlagsBits.AttachFiles,
];

/** What `digest on` answers where the bot lacks permissions, named as Discord's settings name them. */
export const cannotPostDigestText = (missing: string[]) =>
  `I can't post the digest in this channel: I lack ${missing.join(', ')} here. ` +
  "Give me (or my role) those permissions in the channel's settings, then run `/chatbot digest on` again.";

/** Refused where the bot lacks a permission the digest needs (a DM's are the bot's own). */
export function checkDigestChannel(interaction: ChatInputCommandInteraction): DigestChannelCheck | undefined {
  if (!interaction.inGuild()) return undefined;
  const missing = interaction.appPermissions.missing(DIGEST_PERMISSIONS);
  if (missing.length === 0) return undefined;
  return { refusal: cannotPostDigestText(missing.map((name) => name.replace(/(?<=[a-z])(?=[A-Z])/g, ' '))) };
}
