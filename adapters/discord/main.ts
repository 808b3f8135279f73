import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createHubClient, hubApiUrl } from '../hub-client.js';
import { startDiscordBot, type DiscordBot } from './bot.js';
import { onShutdown } from '../../src/shutdown.js';

// `node --import tsx adapters/discord/main.ts` (the Procfile's `discord` process): the Discord
// adapter on its own, reaching the hub over HTTP at HUB_URL with HUB_API_KEY.

const config = loadConfig();
const logger = createLogger(config.logLevel);
// A stray failure is logged, never fatal: the bot keeps serving the other conversations.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

let bot: DiscordBot | undefined;
if (!config.discord || !config.hubUrl) {
  // Idle rather than exit: process managers (foreman, Heroku) stop or restart every process of
  // the Procfile when one exits. Without HUB_URL, `npm start` runs the adapter itself, and a
  // second one would answer everything twice.
  const why = config.discord
    ? 'HUB_URL is not set: the Discord adapter runs inside `npm start`'
    : 'DISCORD_TOKEN is not set';
  logger.warn(`${why}; this process stays idle`);
  setInterval(() => undefined, 2 ** 30);
} else {
  const apiKey = config.hubApiKey;
  const apiUrl = hubApiUrl(config.hubUrl);
  try {
    if (!apiKey) throw new Error('HUB_API_KEY is not set: the adapter needs an API key of the hub');
    logger.info({ hub: apiUrl }, 'starting the Discord adapter');
    bot = await startDiscordBot({ config: config.discord, hub: createHubClient(apiUrl, apiKey), logger });
  } catch (error) {
    logger.fatal({ err: error }, 'the Discord adapter could not start');
    process.exit(1);
  }
}

onShutdown(logger, async () => bot?.stop());
