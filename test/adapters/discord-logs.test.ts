import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDiscordBot, type DiscordBot } from '../../adapters/discord/bot.js';
import { createHubClient } from '../../adapters/hub-client.js';
import { createLogger } from '../../src/logger.js';
import { startFakeDiscord, user, type FakeDiscord } from '../fakes/discord.js';
import { startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// What the Discord adapter logs when Discord refuses a call: discord.js's errors carry the URL
// they called, and an interaction's (or its webhook's) URL holds that interaction's token.

const TOKEN = 'fake-discord-token.for-log-tests';
const sqlite = storeTargets[0];
if (!sqlite) throw new Error('no sqlite store target');

let app: TestApp;
let discord: FakeDiscord;
let bot: DiscordBot;
const lines: string[] = [];

beforeAll(async () => {
  app = await startApp(sqlite);
  discord = await startFakeDiscord({ token: TOKEN });
  bot = await startDiscordBot({
    config: { token: TOKEN, applicationId: discord.applicationId, guildIds: undefined, apiUrl: discord.apiUrl, adminUserIds: [] },
    hub: createHubClient(app.baseUrl, app.apiKey),
    logger: createLogger('info', { pretty: false, destination: { write: (line: string) => void lines.push(line) } }),
  });
});

afterAll(async () => {
  await bot?.stop();
  await discord?.close();
  await app?.close();
});

/**
 * `/chatbot help` whose first answer Discord refuses. The refusal is armed for this interaction's
 * callback alone: the bot answers a refused command again with an apology, and the previous test's
 * apology may still be on its way when this one starts; a refusal of any callback went to whichever
 * came first, the other interaction was answered, and nothing was logged. The command is dispatched
 * over the gateway, so no callback of it can come before this returns.
 */
function refusedHelp(channelName: string, person: string): string {
  const interactionToken = discord.command(discord.createChannel('text', channelName), user(person), 'help');
  discord.failNext('POST', new RegExp(`^/interactions/\\d+/${interactionToken}/callback$`), 404, { message: 'Unknown interaction', code: 10062 });
  return interactionToken;
}

it('logs a refused interaction callback without the interaction token its URL holds', async () => {
  const interactionToken = refusedHelp('logs', 'alice');
  const failed = await discord.until('the logged failure', () => lines.find((line) => line.includes('could not answer a /chatbot command')));
  const { err } = JSON.parse(failed) as { err: { status: number; url: string } };
  expect(err).toMatchObject({ status: 404, url: expect.stringMatching(/\/interactions\/\d+\/\[redacted\]\/callback(\?|$)/) });
  expect(lines.join('\n')).not.toContain(interactionToken);
});

it('logs a refused call with the size of what the bot sent, not its content (a reply, a handoff notice with a person’s details)', async () => {
  const logged = lines.length;
  refusedHelp('sent', 'bob');
  const failed = await discord.until('the logged failure', () => lines.slice(logged).find((line) => line.includes('could not answer a /chatbot command')));
  const { err } = JSON.parse(failed) as { err: { requestBody: unknown } };
  expect(err.requestBody).toEqual({ bytes: expect.any(Number) as number });
  expect((err.requestBody as { bytes: number }).bytes).toBeGreaterThan(0);
  expect(failed).not.toContain('"content"');
});
