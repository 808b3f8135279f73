import type { Logger } from 'pino';
import { ConfigError } from '../src/config.js';
import { createHubClient, hubApiUrl, type HubClient } from './hub-client.js';

// What the Procfile's `slack` and `discord` processes share: staying idle when they have nothing
// to do, and reaching the hub at HUB_URL with HUB_API_KEY.

/**
 * Logs why and keeps the process alive doing nothing. Idle rather than exit: process managers
 * (foreman, Heroku) stop or restart every process of the Procfile when one exits. Without
 * HUB_URL, `npm start` runs the adapter itself, and a second one would answer everything twice.
 */
export function stayIdle(logger: Logger, why: string): void {
  logger.warn(`${why}; this process stays idle`);
  setInterval(() => undefined, 2 ** 30);
}

/** The hub at HUB_URL, reached with HUB_API_KEY; a missing key is a setting's mistake (ConfigError). */
export function remoteHub(hubUrl: string, apiKey: string | undefined): { hub: HubClient; apiUrl: string } {
  if (!apiKey) throw new ConfigError('Invalid configuration:\n  HUB_API_KEY: required with HUB_URL: the adapter needs an API key of the hub');
  const apiUrl = hubApiUrl(hubUrl);
  return { hub: createHubClient(apiUrl, apiKey), apiUrl };
}
