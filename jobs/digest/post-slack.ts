import { ErrorCode, LogLevel, WebClient } from '@slack/web-api';
import type { Poster } from './post.js';
import { isPermanentStatus, reasonOf, RetriesExhausted, withRetry, type FailureKind, type RetryPolicy } from './retry.js';

// The digest on Slack: chat.postMessage with Block Kit blocks and a text fallback, then, when the
// digest has a CSV, files.uploadV2 into the message's thread in the same channel.

export type SlackTarget = {
  botToken: string;
  /** The Web API base (`https://slack.com/api/` when unset). */
  apiUrl: string | undefined;
};

/** Platform errors that no retry can fix. */
const PERMANENT = new Set([
  'account_inactive',
  'channel_not_found',
  'ekm_access_denied',
  'invalid_arguments',
  'invalid_auth',
  'invalid_blocks',
  'is_archived',
  'missing_scope',
  'msg_too_long',
  'no_permission',
  'not_authed',
  'not_in_channel',
  'restricted_action',
  'team_access_not_granted',
  'token_expired',
  'token_revoked',
]);

type SlackError = { code?: string; data?: { error?: string }; retryAfter?: number; statusCode?: number };

/** Slack's answers to a bot posting where it is not a member (a private channel is not found). */
const NOT_A_MEMBER = new Set(['not_in_channel', 'channel_not_found']);

/**
 * A post refused because the bot is not in the channel, with a reason that says how to mend it
 * (the run record and the log show it): every later day fails alike until someone does.
 */
function explained(error: unknown, channelId: string): unknown {
  const code = (error instanceof RetriesExhausted ? (error.cause as SlackError | undefined) : undefined)?.data?.error;
  if (!(error instanceof RetriesExhausted) || !code || !NOT_A_MEMBER.has(code)) return error;
  const reason = `the Slack bot is not in channel ${channelId} (${code}): invite it there with /invite, or the digest fails every day`;
  return new RetriesExhausted(error.attempts, new Error(reason, { cause: error.cause }));
}

function classifySlackError(error: unknown): FailureKind {
  const slack = (typeof error === 'object' && error !== null ? error : {}) as SlackError;
  switch (slack.code) {
    case ErrorCode.PlatformError:
      return { permanent: PERMANENT.has(slack.data?.error ?? '') };
    case ErrorCode.RateLimitedError:
      return { permanent: false, retryAfterMs: (slack.retryAfter ?? 0) * 1000 };
    case ErrorCode.HTTPError: {
      const status = slack.statusCode ?? 500;
      return { permanent: isPermanentStatus(status) };
    }
    default:
      return { permanent: false };
  }
}

export function slackPoster(target: SlackTarget, policy: RetryPolicy): Poster {
  // The client's own retries are off and rate limits come back as errors: the policy decides.
  const client = new WebClient(target.botToken, {
    ...(target.apiUrl ? { slackApiUrl: target.apiUrl } : {}),
    logLevel: LogLevel.ERROR,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: 15_000,
  });

  return async (digest, message) => {
    const { value: posted, attempts } = await withRetry(
      () =>
        client.chat.postMessage({
          channel: digest.channelId,
          text: message.slack.text,
          blocks: message.slack.blocks,
          unfurl_links: false,
          unfurl_media: false,
        }),
      policy,
      classifySlackError,
    ).catch((error: unknown) => {
      throw explained(error, digest.channelId);
    });
    const csv = message.csv;
    if (!csv) return { attempts };
    const file = { file: Buffer.from(csv.content), filename: csv.filename, title: csv.filename };
    const threadTs = posted.ts;
    try {
      await withRetry(
        () =>
          threadTs
            ? client.filesUploadV2({ ...file, channel_id: digest.channelId, thread_ts: threadTs })
            : client.filesUploadV2({ ...file, channel_id: digest.channelId }),
        policy,
        classifySlackError,
      );
      return { attempts };
    } catch (error) {
      // The digest is in the channel; only its attachment is missing. Posting it again would
      // repeat the message, so the run counts as posted, with the reason noted.
      return { attempts, warning: `the CSV attachment failed: ${reasonOf(error)}` };
    }
  };
}
