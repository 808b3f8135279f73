import type { types, webApi } from '@slack/bolt';
import type { AnswerRef, ReplySink } from '../relay.js';
import { answerBlocks, feedbackBlocks } from './feedback.js';
import { countSlackError, platformError } from './metrics.js';
import { escapeText, splitMessage } from './text.js';

// A reply in a Slack thread that grows as the hub streams it: natively streamed where Slack allows
// it (streamedReply), else posted and then edited (threadReply: chat.update). Text beyond one
// message's limit continues in further messages of the thread. The relay decides how often it
// shows new text. A saved answer's last message ends with the 👍/👎 buttons (./feedback.ts).
// Every path escapes the text first: Slack reads its markup (mentions, labelled links) in plain
// text, Markdown text and Markdown blocks alike, and a reply may repeat what anyone typed.

/** What is shown when the chatbot's reply is empty (Slack refuses an empty message). */
export const EMPTY_REPLY = '(The chatbot had nothing to say.)';

type Posted = { ts: string; text: string };

export function threadReply(client: webApi.WebClient, channel: string, threadTs: string): ReplySink {
  const posted: Posted[] = [];

  async function show(text: string, answer?: AnswerRef): Promise<void> {
    const parts = splitMessage(escapeText(text.trim()));
    for (const [index, part] of parts.entries()) {
      const blocks = answer && index === parts.length - 1 ? answerBlocks(part, answer) : undefined;
      const shown = posted[index];
      if (shown?.text === part && !blocks) continue;
      await withButtons(blocks, async (given) => {
        if (shown) await client.chat.update({ channel, ts: shown.ts, text: part, ...(given && { blocks: given }) });
        else posted.push({ ts: await post(part, given), text: part });
      });
      if (shown) shown.text = part;
    }
    // Only when a reply is replaced by a shorter one (an apology after a failure mid-stream).
    for (const extra of posted.splice(parts.length)) {
      await client.chat.delete({ channel, ts: extra.ts });
    }
  }

  async function post(text: string, blocks: types.KnownBlock[] | undefined): Promise<string> {
    const result = await client.chat.postMessage({
      channel,
      thread_ts: threadTs,
      text,
      ...(blocks && { blocks }),
      unfurl_links: false,
      unfurl_media: false,
    });
    if (!result.ts) throw new Error('chat.postMessage answered without a ts');
    return result.ts;
  }

  return {
    update: (text) => show(text),
    finish: (text, answer) => show(text.trim() ? text : EMPTY_REPLY, answer),
  };
}

/** Who a streamed reply is for: Slack wants the recipient when streaming outside a DM. */
export type StreamTarget = { channel: string; threadTs: string; teamId: string; userId: string };

/** Errors with which Slack refuses native streaming for a conversation (or the whole app). */
const STREAMING_REFUSALS = new Set([
  'not_allowed',
  'method_not_supported_for_channel_type',
  'missing_scope',
  'not_allowed_token_type',
  'unknown_method',
]);

const isStreamingRefusal = (error: unknown) => STREAMING_REFUSALS.has(platformError(error) ?? '');

/**
 * Writes a message with the 👍/👎 `blocks` of a saved answer; if Slack refuses them
 * (`invalid_blocks`), the answer is written without them rather than lost.
 */
async function withButtons(blocks: types.KnownBlock[] | undefined, write: (given?: types.KnownBlock[]) => Promise<unknown>): Promise<void> {
  try {
    await write(blocks);
  } catch (error) {
    if (!blocks || platformError(error) !== 'invalid_blocks') throw error;
    countSlackError(error);
    await write();
  }
}

type Stream = { streamer: ReturnType<webApi.WebClient['chatStream']>; text: string; stopped: boolean };

/**
 * A reply streamed with Slack's native methods (the Web API client's chatStream helper over
 * chat.startStream, chat.appendStream, chat.stopStream): each update appends the new text.
 * Text beyond one message's limit continues in a further stream. If Slack refuses to start the
 * stream (the workspace, the channel type or the scopes do not allow it), this reply goes on as
 * the edited message of threadReply; `onRefused` hears of it.
 */
export function streamedReply(client: webApi.WebClient, target: StreamTarget, onRefused: (error: unknown) => void): ReplySink {
  const { channel, threadTs } = target;
  const streams: Stream[] = [];
  let fallback: ReplySink | undefined;

  const stop = async (stream: Stream, blocks?: types.KnownBlock[]) => {
    if (stream.stopped) return;
    stream.stopped = true;
    await withButtons(blocks, (given) => stream.streamer.stop(given && { blocks: given }));
  };

  /** A stopped stream's message written again as a whole: `text` (escaped), with `blocks` if given. */
  const rewrite = (stream: Stream, text: string, blocks?: types.KnownBlock[]) =>
    client.chat.update({ channel, ts: stream.streamer.ts ?? '', text, ...(blocks && { blocks }) });

  /** Ends every stream; the last one with the 👍/👎 buttons of a saved answer. */
  async function stopAll(answer: AnswerRef | undefined): Promise<void> {
    const last = streams.at(-1);
    for (const stream of streams.slice(0, -1)) await stop(stream);
    if (!last) return;
    if (!answer || !last.stopped) return stop(last, answer && feedbackBlocks(answer));
    // Already rewritten as a whole message (see show): the buttons come with one more edit.
    await withButtons(answerBlocks(last.text, answer), (given) => rewrite(last, last.text, given));
  }

  async function show(pieces: string[]): Promise<void> {
    for (const [index, piece] of pieces.entries()) {
      const shown = streams[index];
      if (!shown) {
        // A later piece exists, so the one before is complete.
        const previous = streams.at(-1);
        if (previous) await stop(previous);
        const streamer = client.chatStream({
          channel,
          thread_ts: threadTs,
          recipient_team_id: target.teamId,
          recipient_user_id: target.userId,
          // Each update is sent at once: the relay already spaces them.
          buffer_size: 1,
        });
        await streamer.append({ markdown_text: piece });
        streams.push({ streamer, text: piece, stopped: false });
      } else if (shown.text !== piece) {
        if (!shown.stopped && piece.startsWith(shown.text)) {
          await shown.streamer.append({ markdown_text: piece.slice(shown.text.length) });
        } else {
          // Not a continuation (a cut moved, or an apology replaces the reply): rewrite it.
          await stop(shown);
          await rewrite(shown, piece);
        }
        shown.text = piece;
      }
    }
    for (const extra of streams.splice(pieces.length)) {
      await stop(extra);
      await client.chat.delete({ channel, ts: extra.streamer.ts ?? '' });
    }
  }

  async function deliver(text: string, final: boolean, answer?: AnswerRef): Promise<void> {
    if (fallback) return final ? fallback.finish(text, answer) : fallback.update(text);
    const shown = text.trim() || (final ? EMPTY_REPLY : '');
    try {
      if (shown) await show(splitMessage(escapeText(shown)));
      if (final) await stopAll(answer);
    } catch (error) {
      countSlackError(error);
      if (streams.length > 0 || !isStreamingRefusal(error)) throw error;
      onRefused(error);
      fallback = threadReply(client, channel, threadTs);
      await deliver(text, final, answer);
    }
  }

  return {
    update: (text) => deliver(text, false),
    finish: (text, answer) => deliver(text, true, answer),
  };
}

/** Posts one short message in a thread (a hint or an apology). */
export async function postInThread(client: webApi.WebClient, channel: string, threadTs: string, text: string) {
  await client.chat.postMessage({ channel, thread_ts: threadTs, text: escapeText(text) });
}
