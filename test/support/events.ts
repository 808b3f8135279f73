import { EventSourceParserStream } from 'eventsource-parser/stream';

// A Server-Sent Events client over fetch, read with eventsource-parser (the parser the AI SDK
// reads model streams with), so the hub's streams are checked by code that is not the hub's.

export type ReceivedEvent = { event: string | undefined; id: string | undefined; data: unknown };

export type EventReader = {
  /** The next event; undefined once the stream ended. */
  next(): Promise<ReceivedEvent | undefined>;
  /** Reads events until `done` holds for those read so far; answers them all. */
  until(done: (events: ReceivedEvent[]) => boolean): Promise<ReceivedEvent[]>;
  close(): void;
};

export type OpenedEvents = { status: number; contentType: string | null; body?: unknown; events: EventReader };

export async function openEvents(url: string, headers: Record<string, string> = {}): Promise<OpenedEvents> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const contentType = response.headers.get('content-type');
  if (response.status !== 200 || !response.body) {
    return { status: response.status, contentType, body: await response.json(), events: closedReader() };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  const next = async () => {
    const { done, value } = await reader.read();
    return done ? undefined : { event: value.event, id: value.id, data: JSON.parse(value.data) as unknown };
  };
  return {
    status: response.status,
    contentType,
    events: {
      next,
      async until(done) {
        const read: ReceivedEvent[] = [];
        while (!done(read)) {
          const event = await next();
          if (!event) throw new Error(`the stream ended after ${JSON.stringify(read)}`);
          read.push(event);
        }
        return read;
      },
      close: () => controller.abort(),
    },
  };
}

function closedReader(): EventReader {
  return {
    next: async () => undefined,
    until: async () => {
      throw new Error('no stream');
    },
    close() {},
  };
}
