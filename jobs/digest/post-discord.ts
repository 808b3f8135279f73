import { DiscordAPIError, HTTPError, RateLimitError, REST } from '@discordjs/rest';
import type { Poster } from './post.js';
import { isPermanentStatus, RetriesExhausted, withRetry, type FailureKind, type RetryPolicy } from './retry.js';

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

/**
 * Discord's answers to a bot posting where it may not (not let into the channel, or removed from
 * it): Missing Access and Missing Permissions.
 */
const NOT_ALLOWED = new Set<unknown>([50_001, 50_013]);

/**
 * A post refused for the bot's permissions, with a reason that says what it needs (the run record
 * and the log show it): every later day fails alike until someone gives it them.
 */
function explained(error: unknown, channelId: string): unknown {
  const cause = error instanceof RetriesExhausted ? error.cause : undefined;
  if (!(error instanceof RetriesExhausted) || !(cause instanceof DiscordAPIError) || !NOT_ALLOWED.has(cause.code)) return error;
  const reason = `the Discord bot may not post in channel ${channelId} (${cause.message}): give it View Channel, Send Messages, Embed Links and Attach Files there, or the digest fails every day`;
  return new RetriesExhausted(error.attempts, new Error(reason, { cause }));
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
    ).catch((error: unknown) => {
      throw explained(error, digest.channelId);
    });
    return { attempts };
  };
}
