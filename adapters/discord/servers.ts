import { DiscordAPIError, Events, MessageFlags, RESTJSONErrorCodes, type Client, type Guild, type Interaction } from 'discord.js';
import type { Logger } from 'pino';

// The servers the bot serves (DISCORD_GUILD_IDS; see src/config.ts for the default). A public bot
// can be added to anyone's server, where Manage Server would make them an admin of this account's
// chatbots: the bot leaves every other server, and until it has (or if it cannot) answers nothing
// there but a command, button or form, privately, saying so (Discord would show an unanswered one
// as failed).

/** The answer to a command, button or form in a server the bot does not serve. */
export const NOT_SERVED = 'This bot does not work in this server.';

/** Whether the bot serves a server (`null`: a DM, which belongs to no server); every one without a list. */
export const servesGuild = (guildIds: readonly string[] | undefined, guildId: string | null): boolean =>
  guildId === null || guildIds === undefined || guildIds.includes(guildId);

/** Answers a command, button or form from a server the bot does not serve, privately. */
export async function refuseInteraction(interaction: Interaction): Promise<void> {
  if (interaction.isRepliable()) await interaction.reply({ content: NOT_SERVED, flags: MessageFlags.Ephemeral });
}

/**
 * Leaves every server the list leaves out: those the bot is in at start, one that adds it, and one
 * unavailable at start (an outage) once Discord sends it again. A listed server, coming back from
 * an outage or sent again on a new session, is kept.
 */
export function leaveUnlistedServers(client: Client<true>, guildIds: readonly string[] | undefined, logger: Logger): void {
  if (guildIds === undefined) return;
  const leaveIfUnlisted = (guild: Guild) => {
    if (guildIds.includes(guild.id)) return;
    logger.warn({ guildId: guild.id, name: guild.name }, 'the bot is in a server DISCORD_GUILD_IDS does not list: leaving it');
    guild.leave().catch((error: unknown) => {
      // Another instance of the bot left it first.
      if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownGuild) return;
      logger.warn({ err: error, guildId: guild.id }, 'could not leave a server: it stays ignored');
    });
  };
  for (const guild of client.guilds.cache.values()) if (guild.available) leaveIfUnlisted(guild);
  client.on(Events.GuildCreate, leaveIfUnlisted);
  client.on(Events.GuildAvailable, leaveIfUnlisted);
}
