import type { webApi } from '@slack/bolt';
import type { ReplySink } from '../relay.js';
import { escapeText, splitMessage } from './text.js';

// A reply in a Slack thread that grows as the hub streams it: the first text is posted, later
// text edits that message (chat.update), and text beyond one message's limit continues in
// further messages of the thread. The relay decides how often it shows new text.

/** What is shown when the chatbot's reply is empty (Slack refuses an empty message). */
export const EMPTY_REPLY = '(The chatbot had nothing to say.)';

type Posted = { ts: string; text: string };

export function threadReply(client: webApi.WebClient, channel: string, threadTs: string): ReplySink {
  const posted: Posted[] = [];

  async function show(text: string): Promise<void> {
    const parts = splitMessage(escapeText(text.trim()));
    for (const [index, part] of parts.entries()) {
      const shown = posted[index];
      if (!shown) {
        posted.push({ ts: await post(part), text: part });
      } else if (shown.text !== part) {
        await client.chat.update({ channel, ts: shown.ts, text: part });
        shown.text = part;
      }
    }
    // Only when a reply is replaced by a shorter one (an apology after a failure mid-stream).
    for (const extra of posted.splice(parts.length)) {
      await client.chat.delete({ channel, ts: extra.ts });
    }
  }

  async function post(text: string): Promise<string> {
    const result = await client.chat.postMessage({
      channel,
      thread_ts: threadTs,
      text,
      unfurl_links: false,
      unfurl_media: false,
    });
    if (!result.ts) throw new Error('chat.postMessage answered without a ts');
    return result.ts;
  }

  return {
    update: show,
    finish: (text) => show(text.trim() ? text : EMPTY_REPLY),
  };
}

/** Posts one short message in a thread (a hint or an apology). */
export async function postInThread(client: webApi.WebClient, channel: string, threadTs: string, text: string) {
  await client.chat.postMessage({ channel, thread_ts: threadTs, text: escapeText(text) });
}
