import { Events, type Client } from 'discord.js';
import type { Logger } from 'pino';
import type { HubClient } from '../hub-client.js';
import { DEFAULT_RETRY_DELAYS, retryInBackground, type RetryDelays } from '../retry-in-background.js';
import { chatbotCommand, COMMAND_NAME } from './interactions.js';

// Where `/chatbot` is registered. With a list of servers (DISCORD_GUILD_IDS), in each listed one
// the bot is in (it appears there at once, and in no other server), and in a listed one as it adds
// the bot; a global registration left from before the list is removed. Without a list, globally.
// Each is a bulk overwrite (PUT …/commands), so the set is exactly this command wherever it is.
// A server an earlier list named keeps its registration until removed: at start, `/chatbot` is
// deleted from the servers that may have one and are not listed (every one, without a list). Only
// this application's command of that name: its other commands, and other apps', stay.
//
// Finding a server's commands is a request per server, hundreds for a bot in many servers, and
// Discord tells no other way where an application registered a command. So the hub keeps the
// servers that may have one (the listed ones, and those a removal failed in), recorded before any
// registration there: a start looks only at those it does not list, none when the list is the
// same. Before the first record (a first start, or the first after a version that kept none), at
// every server the bot is in and does not list; a process of one shard of several does so until an
// unsharded start has recorded them. A recorded server the bot is no longer in (or another shard's)
// stays recorded, unread by this process, for a start that has it. A record the hub could not take
// at start is tried again in the background until it takes it, the bot serving meanwhile: left
// stale, a server listed now and dropped later would keep its `/chatbot`.

type CommandServerRecord = Pick<HubClient, 'commandServers' | 'recordCommandServers'>;

const sameServers = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((guildId) => b.includes(guildId));

/** Whether this process gets every server the bot is in, not a shard's alone (ShardingManager, or a `shards` range). */
function seesEveryServer(client: Client): boolean {
  const { shards, shardCount = 1 } = client.options;
  if (typeof shards === 'number') return shardCount <= 1;
  return !Array.isArray(shards) || shards.length >= shardCount;
}

/** How a record the hub refused at start is tried again: until `signal` (the bot stopping) aborts. */
export type RecordRetry = { signal: AbortSignal; delays?: RetryDelays };

/** Registers `/chatbot` for the servers the bot serves; answers where, for the log. */
export async function registerChatbotCommand(
  client: Client<true>,
  guildIds: readonly string[] | undefined,
  hub: CommandServerRecord,
  logger: Logger,
  retry: RecordRetry,
): Promise<string> {
  const commands = client.application.commands;
  const applicationId = client.application.id;
  const listed = guildIds ?? [];
  // One server refusing leaves the others served.
  const warnIn = (guildId: string, doing: string) => (error: unknown) => logger.warn({ err: error, guildId }, `could not ${doing} /chatbot in a server`);
  const withdrawFrom = async (guildId: string) => {
    const found = await commands.fetch({ guildId });
    await Promise.all(found.filter((command) => command.name === COMMAND_NAME).map((command) => commands.delete(command.id, guildId)));
  };
  const recorded = await hub.commandServers(applicationId).catch((error: unknown) => {
    logger.warn({ err: error }, 'could not read from the hub where /chatbot is registered: looking in every server');
    return null;
  });
  const unlisted = (recorded ?? [...client.guilds.cache.keys()]).filter((guildId) => !listed.includes(guildId));
  const refused = await Promise.all(
    unlisted.map((guildId) => {
      // Not in it, the bot can neither read nor remove its command there: kept for a later start.
      if (!client.guilds.cache.has(guildId)) return [guildId];
      return withdrawFrom(guildId).then(
        () => [],
        (error: unknown) => {
          warnIn(guildId, 'remove')(error);
          return [guildId];
        },
      );
    }),
  );
  // Recorded before registering anywhere, so a start cut short after it leaves none unrecorded.
  // Looking at one shard's servers only, a first record would hide the other shards' leftovers.
  const mayHave = [...new Set([...listed, ...refused.flat()])];
  if (recorded ? !sameServers(mayHave, recorded) : seesEveryServer(client)) {
    const record = () => hub.recordCommandServers(applicationId, mayHave);
    const delays = retry.delays ?? DEFAULT_RETRY_DELAYS;
    const couldNotRecord = (error: unknown, retryInMs: number) =>
      logger.warn({ err: error, retryInMs }, 'could not record in the hub where /chatbot is registered: trying again');
    await record().catch((error: unknown) => {
      couldNotRecord(error, delays.firstMs);
      void retryInBackground(record, { signal: retry.signal, delays, onFailure: couldNotRecord }).then((saved) => {
        if (saved) logger.info('recorded in the hub where /chatbot is registered');
      });
    });
  }

  if (guildIds === undefined) {
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
  return `servers ${guildIds.join(', ')}`;
}
