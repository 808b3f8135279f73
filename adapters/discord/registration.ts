import { Events, type Client } from 'discord.js';
import type { Logger } from 'pino';
import { chatbotCommand } from './interactions.js';

// Where `/chatbot` is registered. With a list of servers (DISCORD_GUILD_IDS), in each listed one
// the bot is in (it appears there at once, and in no other server), and in a listed one as it adds
// the bot; a global registration left from before the list is removed. Without a list, globally.
// Each is a bulk overwrite (PUT …/commands), so the set is exactly this command wherever it is.

/** Registers `/chatbot` for the servers the bot serves; answers where, for the log. */
export async function registerChatbotCommand(client: Client<true>, guildIds: readonly string[] | undefined, logger: Logger): Promise<string> {
  const commands = client.application.commands;
  if (guildIds === undefined) {
    await commands.set([chatbotCommand()]);
    return 'global';
  }
  // One server refusing leaves the others served.
  const registerIn = (guildId: string) =>
    commands.set([chatbotCommand()], guildId).catch((error: unknown) => logger.warn({ err: error, guildId }, 'could not register /chatbot in a server'));
  client.on(Events.GuildCreate, (guild) => {
    if (guildIds.includes(guild.id)) void registerIn(guild.id);
  });
  const missing = guildIds.filter((guildId) => !client.guilds.cache.has(guildId));
  if (missing.length > 0) logger.warn({ guildIds: missing }, 'the bot is not in servers DISCORD_GUILD_IDS lists: /chatbot is registered there once it is added');
  await Promise.all(guildIds.filter((guildId) => client.guilds.cache.has(guildId)).map(registerIn));
  await commands.set([]);
  return `servers ${guildIds.join(', ')}`;
}
