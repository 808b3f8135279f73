import { once } from 'node:events';
import { Client, DiscordjsErrorCodes, Events, GatewayIntentBits, MessageFlags, Partials, type Interaction } from 'discord.js';
import type { Logger } from 'pino';
import { ConfigError, type DiscordConfig } from '../../src/config.js';
import type { HubClient } from '../hub-client.js';
import { createLearnWatcher, type LearnWatchOptions } from '../learn-watch.js';
import { createRelay, HUB_UNAVAILABLE } from '../relay.js';
import { onFeedbackButton } from './feedback.js';
import { createHandoffListeners } from './handoff.js';
import { startHandoffNotices } from './handoff-notices.js';
import { createInteractionHandler, DISCORD_WORDS, isDiscordAdmin } from './interactions.js';
import { onAnswerButton, onAnswerModal } from './unanswered.js';
import { createMessageHandler } from './messages.js';
import { instrumentDiscord } from './metrics.js';
import type { RetryDelays } from '../retry-in-background.js';
import { registerChatbotCommand } from './registration.js';
import { leaveUnlistedServers, refuseInteraction, servesGuild } from './servers.js';

// The Discord adapter: a discord.js client with only the intents it needs, REST pointed at
// DISCORD_API_URL (the gateway address comes from that REST API's GET /gateway/bot), the
// `/chatbot` command registered on start, messages routed to the hub through the relay.
// discord.js queues requests around 429s and resumes dropped gateway sessions by itself.

/**
 * Guilds: the servers and their channels (routing, thread parents). GuildMessages and
 * DirectMessages: messages in channels, threads and DMs. MessageContent (privileged, enable it
 * in the Developer Portal): the text of messages that do not mention the bot.
 */
const DISCORD_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
  GatewayIntentBits.DirectMessages,
] as const;

/** Discord's "An invalid token was provided", as the setting's mistake it is (never the token). */
const TOKEN_REFUSED = "Discord refused the token DISCORD_TOKEN holds: set it to the bot's current token.";
const DEFAULT_HISTORY_LIMIT = 20;
/** How long a `/chatbot learn` watch lasts: within the 15 minutes its interaction can still be answered. */
const LEARN_WATCH_MS = 14 * 60_000;

/**
 * Discord makes a new bot public: anyone may add it to a server of theirs, where Manage Server
 * makes them an admin of this account's chatbots (leads, settings, bindings), unless the bot
 * serves only the servers DISCORD_GUILD_IDS (or DISCORD_GUILD_ID) lists.
 */
export const PUBLIC_BOT_WARNING =
  "The bot is public: anyone can add it to a server they manage and there read this account's leads and change its chatbots. Turn off Public Bot on the application's Bot page in the Developer Portal, or list your servers in DISCORD_GUILD_IDS.";

export type DiscordBotOptions = {
  config: DiscordConfig;
  hub: HubClient;
  logger: Logger;
  /** Least time between two edits of a streaming reply; Discord's edit limits want ≥ ~1 s. */
  updateIntervalMs?: number;
  /** Recent messages of the channel sent along as the conversation. */
  historyLimit?: number;
  /** How `/chatbot learn` watches the website it started (tests look more often). */
  learnWatch?: Partial<Omit<LearnWatchOptions, 'logger'>>;
  /** How a record of the command's servers the hub refused at start is tried again (tests try sooner). */
  recordRetry?: RetryDelays;
};

export type DiscordBot = {
  client: Client<true>;
  applicationId: string;
  stop(): Promise<void>;
};

/** Logs in, waits until the client is ready, registers `/chatbot`, and starts answering. */
export async function startDiscordBot(options: DiscordBotOptions): Promise<DiscordBot> {
  const { config, hub } = options;
  const logger = options.logger.child({ adapter: 'discord' });
  const client = new Client({
    intents: [...DISCORD_INTENTS],
    // DM channels are not cached; without this their messages would be dropped.
    partials: [Partials.Channel],
    rest: { api: config.apiUrl },
    // A chatbot's words never ping @everyone, roles or users; replying pings the asker.
    allowedMentions: { parse: [], repliedUser: true },
    // Reply even if the question was deleted meanwhile.
    failIfNotExists: false,
  });

  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn({ message }, 'discord client warning'));
  client.on(Events.ShardError, (error, shardId) => logger.warn({ err: error, shardId }, 'gateway connection error'));
  client.on(Events.ShardReconnecting, (shardId) => logger.info({ shardId }, 'gateway reconnecting'));
  client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'gateway session resumed'));
  client.on(Events.ShardDisconnect, (event, shardId) =>
    logger.error({ shardId, code: event.code }, 'gateway disconnected for good'),
  );
  instrumentDiscord(client);
  client.rest.on('rateLimited', (info) =>
    logger.warn({ route: info.route, retryAfter: info.retryAfter, global: info.global }, 'Discord rate limit: waiting'),
  );

  const ready = once(client, Events.ClientReady) as Promise<[Client<true>]>;
  ready.catch(() => undefined); // Awaited below only if login succeeds.
  try {
    await client.login(config.token).catch((error: unknown) => {
      throw (error as { code?: unknown }).code === DiscordjsErrorCodes.TokenInvalid ? new ConfigError(TOKEN_REFUSED) : error;
    });
    const [readyClient] = await ready;
    const applicationId = readyClient.application.id;
    if (config.applicationId && config.applicationId !== applicationId) {
      throw new ConfigError(`DISCORD_APPLICATION_ID is ${config.applicationId}, but DISCORD_TOKEN belongs to application ${applicationId}.`);
    }

    const serves = (guildId: string | null) => servesGuild(config.guildIds, guildId);
    if (!config.guildIds && (await readyClient.application.fetch().catch(() => undefined))?.botPublic) logger.warn(PUBLIC_BOT_WARNING);
    leaveUnlistedServers(readyClient, config.guildIds, logger);

    const updateIntervalMs = options.updateIntervalMs ?? 1_000;
    const relay = createRelay({ hub, platform: 'discord', source: 'Discord', logger, updateIntervalMs });
    const messages = createMessageHandler({
      client: readyClient,
      relay,
      logger,
      historyLimit: options.historyLimit ?? DEFAULT_HISTORY_LIMIT,
      editIntervalMs: updateIntervalMs,
    });
    const handoffs = createHandoffListeners({ client: readyClient, hub, relay, logger });
    // A learn watch answers through its command's interaction, whose token Discord honours for 15 minutes.
    const learning = createLearnWatcher({ logger, timeoutMs: LEARN_WATCH_MS, ...options.learnWatch });
    const onCommand = createInteractionHandler({ hub, adminUserIds: config.adminUserIds, logger, learning });
    const answers = {
      hub,
      relay,
      words: DISCORD_WORDS,
      isAdmin: (interaction: Parameters<typeof isDiscordAdmin>[0]) => isDiscordAdmin(interaction, config.adminUserIds),
      logger,
    };
    // Handlers catch their own failures; these catches are the last line, so the process survives.
    // A handoff thread is the team's: its messages go to the person, the chatbot never answers there.
    readyClient.on(Events.MessageCreate, (message) => {
      if (!serves(message.guildId)) return;
      handoffs
        .onMessage(message)
        .then((relayed) => (relayed ? undefined : messages.onMessage(message)))
        .catch((error: unknown) => logger.error({ err: error }, 'message handler failed'));
    });
    /** An interaction to the handler of its kind; a button to the first that knows it. */
    const handleInteraction = (interaction: Interaction): Promise<unknown> => {
      if (!serves(interaction.guildId)) return refuseInteraction(interaction);
      if (interaction.isButton()) {
        return handoffs
          .onButton(interaction)
          .then((done) => done || onFeedbackButton(interaction, { hub, relay, logger }))
          .then((done) => done || onAnswerButton(interaction, answers))
          .then((done) => done || messages.onButton(interaction));
      }
      return interaction.isModalSubmit() ? onAnswerModal(interaction, answers) : onCommand(interaction);
    };
    readyClient.on(Events.InteractionCreate, (interaction) => {
      handleInteraction(interaction).catch(async (error: unknown) => {
        logger.error({ err: error, interactionId: interaction.id }, 'interaction handler failed');
        // Unanswered, Discord shows the click as failed: the hub out of reach (its claim), say so privately.
        if (!interaction.isRepliable() || interaction.replied || interaction.deferred) return;
        await interaction.reply({ content: HUB_UNAVAILABLE, flags: MessageFlags.Ephemeral }).catch(() => undefined);
      });
    });

    // Registered once the handlers listen, so nothing that arrives meanwhile is dropped.
    const stopping = new AbortController();
    const commands = await registerChatbotCommand(readyClient, config.guildIds, hub, logger, { signal: stopping.signal, delays: options.recordRetry });
    const notices = startHandoffNotices({ client: readyClient, hub, logger, serves });
    logger.info(
      { user: readyClient.user.tag, applicationId, commands },
      'Discord adapter ready',
    );

    return {
      client: readyClient,
      applicationId,
      async stop() {
        stopping.abort();
        learning.stop();
        await notices.stop();
        readyClient.removeAllListeners();
        await readyClient.destroy();
      },
    };
  } catch (error) {
    await client.destroy();
    throw error;
  }
}
