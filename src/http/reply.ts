import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { ChatReply } from '../domain/chat.js';

/** Names the saved reply (an extension), e.g. for feedback on it. */
export const MESSAGE_ID_HEADER = 'X-Message-Id';
/** Says what the saved reply is (an extension): `answer`, `decline` or `handoff`. */
export const MESSAGE_KIND_HEADER = 'X-Message-Kind';

/**
 * The headers naming where a reply is saved and, when it is known by now, what it is: none for a
 * reply that is not saved. A streamed reply of the engine is an answer or a decline only once it
 * ends, after its headers are sent, so it carries no kind (trailers would, but fetch and many
 * proxies drop them).
 */
function savedAs(reply: ChatReply): Record<string, string> {
  if (!reply.messageId) return {};
  const kind = reply.kind();
  return { [MESSAGE_ID_HEADER]: reply.messageId, ...(kind && { [MESSAGE_KIND_HEADER]: kind }) };
}

/**
 * Answers a chat reply whole as `{text}`, or streamed as text/plain, flushed piece by piece; the
 * headers saying where it is saved go with a reply that starts (never with a failure).
 */
export async function sendReply(ctx: Context, reply: ChatReply, stream: boolean): Promise<void> {
  const signal = abortedOnDisconnect(ctx);
  if (!stream) {
    const text = await reply.complete(signal);
    ctx.set(savedAs(reply));
    ctx.body = { text };
    return;
  }
  // The first piece is awaited before anything is sent, so a provider that fails at once is
  // still answered with the contract's 500 body rather than an empty 200.
  const pieces = reply.stream(signal)[Symbol.asyncIterator]();
  const first = await pieces.next();
  ctx.set(savedAs(reply));
  ctx.type = 'text/plain; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Accel-Buffering', 'no');
  const body = Readable.from(resume(first, pieces), { objectMode: false });
  // Past the headers a failure cannot become a status: cut the connection so the client sees
  // an incomplete response, not a clean but truncated reply.
  body.once('error', (error) => {
    ctx.log.error({ err: error }, 'chat stream failed');
    ctx.res.destroy();
  });
  ctx.body = body;
}

async function* resume(first: IteratorResult<string>, rest: AsyncIterator<string>): AsyncGenerator<string> {
  try {
    for (let step = first; !step.done; step = await rest.next()) yield step.value;
  } finally {
    await rest.return?.();
  }
}

function abortedOnDisconnect(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}
