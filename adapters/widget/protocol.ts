// The messages the embed script (in the host page) and the chat window (in the iframe) exchange
// by postMessage. Each side checks the other's origin and window before acting on one.

export type WidgetMessage =
  | { type: 'switchboard:close' }
  | { type: 'switchboard:focus' }
  /** The window's first or last control: Tab went past its end (or Shift+Tab past its start) where it covers the page. */
  | { type: 'switchboard:focus-edge'; edge: 'first' | 'last' }
  | { type: 'switchboard:conversation'; conversationId: string };

const TYPES = new Set(['switchboard:close', 'switchboard:focus', 'switchboard:focus-edge', 'switchboard:conversation']);

export function isWidgetMessage(data: unknown): data is WidgetMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { type, conversationId, edge } = data as Record<string, unknown>;
  if (!TYPES.has(type as string)) return false;
  if (type === 'switchboard:focus-edge') return edge === 'first' || edge === 'last';
  return type !== 'switchboard:conversation' || isConversationId(conversationId);
}

const CONVERSATION_ID = /^wc_[A-Za-z0-9_-]{20,64}$/;

export function isConversationId(value: unknown): value is string {
  return typeof value === 'string' && CONVERSATION_ID.test(value);
}

/** 24 random URL-safe characters, marked as the widget's. */
export function newConversationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return `wc_${btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_')}`;
}

/** localStorage that may be missing (blocked storage, privacy modes): then nothing persists. */
export function storage(): { get(key: string): string | null; set(key: string, value: string): void } {
  return {
    get(key) {
      try {
        return localStorage.getItem(key);
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        localStorage.setItem(key, value);
      } catch {
        // Not persisting is the fallback.
      }
    },
  };
}
