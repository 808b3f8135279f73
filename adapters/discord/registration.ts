import { Events, type Client } from 'discord.js';
import type { Logger } from 'pino';
import { chatbotCommand, COMMAND_NAME } from './interactions.js';

// Where `/chatbot` is registered. With a list of servers (DISCORD_GUILD_IDS), in each listed one
// the bot is in (it appears there at once, and in no other server), and in a listed one as it adds
// the bot; a global registration left from before the list is removed. Without a list, globally.
// Each is a bulk overwrite (PUT …/commands), so the set is exactly this command wherever it is.
// A server an earlier list named keeps its registration until removed: at start, `/chatbot` is
// deleted from the servers the bot is in that are not listed (every one, without a list). Only
// this application's command of that name: its other commands, and other apps', stay.
//
// Finding a server's commands is a request per server, hundreds for a bot in many servers, so a
// start without a list looks only when something can be left over. The global `/chatbot` says
// so: a start with a list removes it before registering in any server, and one without sets it
// only once every server's is removed. Found there, no server registration was made since.

/** Registers `/chatbot` for the servers the bot serves; answers where, for the log. */
export async function registerChatbotCommand(client: Client<true>, guildIds: readonly string[] | undefined, logger: Logger): Promise<string> {
  const commands = client.application.commands;
  const inServers = [...client.guilds.cache.keys()];
  // One server refusing leaves the others served.
  const warnIn = (guildId: string, doing: string) => (error: unknown) => logger.warn({ err: error, guildId }, `could not ${doing} /chatbot in a server`);
  const withdrawFrom = async (guildId: string) => {
    const found = await commands.fetch({ guildId });
    await Promise.all(found.filter((command) => command.name === COMMAND_NAME).map((command) => commands.delete(command.id, guildId)));
  };
  const withdrawFromUnlisted = () =>
    Promise.all(inServers.filter((guildId) => !guildIds?.includes(guildId)).map((guildId) => withdrawFrom(guildId).catch(warnIn(guildId, 'remove'))));

  if (guildIds === undefined) {
    const registeredGlobally = (await commands.fetch()).some((command) => command.name === COMMAND_NAME);
    if (!registeredGlobally) await withdrawFromUnlisted();
    await commands.set([chatbotCommand()]);
    return 'global';
  }
  await commands.set([]);
  const registerIn = (guildId: string) => commands.set([chatbotCommand()], guildId).catch(warnIn(guildId, 'register'));
  client.on(Events.GuildCreate, (guild) => {
    if (guildIds.includes(guild.id)) void registerIn(guild.id);
  });
  const missing = guildIds.filter((guildId) => !client.guilds.cache.has(guildId));
  if (missing.length > 0) logger.warn({ guildIds: missing }, 'the bot is not in servers DISCORD_GUILD_IDS lists: /chatbot is registered there once it is added');
  await Promise.all(guildIds.filter((guildId) => client.guilds.cache.has(guildId)).map(registerIn));
  await withdrawFromUnlisted();
  return `servers ${guildIds.join(', ')}`;
}
