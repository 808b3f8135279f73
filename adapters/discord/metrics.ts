import { Events, type Client } from 'discord.js';
import { platformEvents, recordPlatformApiError } from '../../src/metrics.js';

/** Counts the gateway events the bot handles and every REST answer that is an error (429s apart). */
export function instrumentDiscord(client: Client): void {
  client.on(Events.MessageCreate, () => platformEvents.inc({ platform: 'discord', event: 'message' }));
  client.on(Events.InteractionCreate, () => platformEvents.inc({ platform: 'discord', event: 'interaction' }));
  client.rest.on('response', (_request, response) => {
    if (response.status >= 400) recordPlatformApiError('discord', response.status);
  });
}
