import { DiscordAPIError, HTTPError, RateLimitError, REST } from '@discordjs/rest';
import type { Poster } from './post.js';
import { isPermanentStatus, withRetry, type FailureKind, type RetryPolicy } from './retry.js';

// The digest on Discord: one POST /channels/{id}/messages with the embed, and the CSV, when there
// is one, as a multipart attachment of the same message.

export type DiscordTarget = {
  token: string;
  /** Discord's REST base, without the version (`https://discord.com/api`). */
  apiUrl: string;
};

function classifyDiscordError(error: unknown): FailureKind {
  if (error instanceof RateLimitError) return { permanent: false, retryAfterMs: error.retryAfter };
  if (error instanceof DiscordAPIError || error instanceof HTTPError) {
    const { status } = error;
    return { permanent: isPermanentStatus(status) };
  }
  return { permanent: false };
}

export function discordPoster(target: DiscordTarget, policy: RetryPolicy): Poster {
  // The client's own retries are off and rate limits come back as errors: the policy decides.
  const rest = new REST({
    api: target.apiUrl,
    version: '10',
    retries: 0,
    rejectOnRateLimit: () => true,
    timeout: 15_000,
  }).setToken(target.token);

  return async (digest, message) => {
    const csv = message.csv;
    const body = {
      content: message.discord.content,
      embeds: message.discord.embeds,
      // Nobody is pinged, whatever a lead or a chatbot is called.
      allowed_mentions: { parse: [] },
      ...(csv ? { attachments: [{ id: 0, filename: csv.filename }] } : {}),
    };
    const files = csv ? [{ name: csv.filename, data: Buffer.from(csv.content), contentType: 'text/csv' }] : undefined;
    const { attempts } = await withRetry(
      () => rest.post(`/channels/${digest.channelId}/messages`, { body, ...(files ? { files } : {}) }),
      policy,
      classifyDiscordError,
    );
    return { attempts };
  };
}
