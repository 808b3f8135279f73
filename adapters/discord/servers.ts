import { DiscordAPIError, Events, MessageFlags, RESTJSONErrorCodes, type Client, type Interaction } from 'discord.js';
import type { Logger } from 'pino';

// The servers the bot serves (DISCORD_GUILD_IDS; see src/config.ts for the default). A public bot
// can be added to anyone's server, where Manage Server would make them an admin of this account's
// chatbots: nothing from another server is answered but a command, button or form, privately,
// saying so (Discord would show an unanswered one as failed); a server that adds the bot is left at once. Servers it was in before the list was set are only ignored
// (logged at start), so a mistyped list never makes it leave a server of yours.

/** The answer to a command, button or form in a server the bot does not serve. */
export const NOT_SERVED = 'This bot does not work in this server.';

/** Whether the bot serves a server (`null`: a DM, which belongs to no server); every one without a list. */
export const servesGuild = (guildIds: readonly string[] | undefined, guildId: string | null): boolean =>
  guildId === null || guildIds === undefined || guildIds.includes(guildId);

/** Answers a command, button or form from a server the bot does not serve, privately. */
export async function refuseInteraction(interaction: Interaction): Promise<void> {
  if (interaction.isRepliable()) await interaction.reply({ content: NOT_SERVED, flags: MessageFlags.Ephemeral });
}

/** Leaves every server that adds the bot but is not listed; logs the unlisted ones it is already in. */
export function leaveUnlistedServers(client: Client<true>, guildIds: readonly string[] | undefined, logger: Logger): void {
  if (guildIds === undefined) return;
  const unlisted = [...client.guilds.cache.keys()].filter((guildId) => !guildIds.includes(guildId));
  if (unlisted.length > 0) {
    logger.warn({ guildIds: unlisted }, 'the bot is in servers DISCORD_GUILD_IDS does not list: it ignores them (remove it from them)');
  }
  // Emitted only for servers joined while connected (those it was in arrive as available).
  client.on(Events.GuildCreate, (guild) => {
    if (guildIds.includes(guild.id)) return;
    logger.warn({ guildId: guild.id }, 'added to a server DISCORD_GUILD_IDS does not list: leaving it');
    guild.leave().catch((error: unknown) => {
      // Another instance of the bot left it first.
      if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownGuild) return;
      logger.warn({ err: error, guildId: guild.id }, 'could not leave a server');
    });
  });
}
