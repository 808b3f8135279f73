// A handed-off conversation, live: the hub's event stream of the team's replies and the
// handoff's state (GET …/conversations/{id}/events). The browser's EventSource reconnects by
// itself after a dropped connection, sending the last event's id so nothing is missed or
// repeated; when it gives up (an error status, say from a proxy while the hub restarts), this
// opens a new one after the same id, waiting longer each time (at most 30 s), for as long as the
// conversation is there: a restart may take minutes, and the visitor waits for the team meanwhile.

export type Author = { type: 'human'; name: string };
export type Feedback = 'up' | 'down';
/** `kind` marks a message of the chatbot's that is not an answer; `feedback` is the visitor's rating. */
export type Message = { id: string; role: 'user' | 'assistant'; content: string; author?: Author; kind?: 'decline' | 'handoff'; feedback?: Feedback };
export type HandoffState = { status: 'pending' | 'active' | 'resolved' | 'missed'; requested_at: string; taken_by: string | null };

export type LiveHandlers = {
  reply(message: Message): void;
  /** The state when the stream starts and each time it changes; null for none. */
  handoff(state: HandoffState | null): void;
};

const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;

export const isOpen = (state: HandoffState | null): boolean => state?.status === 'pending' || state?.status === 'active';

/**
 * Follows the conversation at `url` (the window's route for its history; its stream is under
 * it) from after message `after` until its handoff is over, the conversation is gone, or `stop()`.
 */
export function follow(url: string, after: string | undefined, handlers: LiveHandlers): { stop(): void } {
  const events = `${url}/events`;
  let lastId = after;
  let source: EventSource | undefined;
  let retry: number | undefined;
  let failures = 0;
  let stopped = false;

  function open(): void {
    source = new EventSource(lastId === undefined ? events : `${events}?after=${encodeURIComponent(lastId)}`);
    source.addEventListener('open', () => (failures = 0));
    source.addEventListener('reply', (event) => {
      lastId = event.lastEventId;
      handlers.reply(JSON.parse(event.data) as Message);
    });
    source.addEventListener('handoff', (event) => {
      lastId = event.lastEventId || lastId;
      const state = JSON.parse(event.data) as HandoffState | null;
      // A closed state is the stream's last event: the hub sends nothing more for this handoff.
      if (!isOpen(state)) stop();
      handlers.handoff(state);
    });
    source.addEventListener('error', () => {
      if (stopped || source?.readyState !== EventSource.CLOSED) return;
      failures += 1;
      retry = window.setTimeout(() => void reopen(), Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), LAST_RETRY_MS));
    });
  }

  /** Opens the stream again, unless the conversation is gone for good (a chatbot made private answers 404). */
  async function reopen(): Promise<void> {
    const gone = (await fetch(url).catch(() => undefined))?.status === 404;
    if (gone) stop();
    else if (!stopped) open();
  }

  function stop(): void {
    stopped = true;
    source?.close();
    window.clearTimeout(retry);
  }

  open();
  return { stop };
}
