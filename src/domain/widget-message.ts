// How long a visitor's message in the widget may be: the hub refuses a longer one, and the
// window says so before sending (adapters/widget), rather than cutting it.

/** Characters (UTF-16 code units, as JavaScript counts them), once trimmed. */
export const WIDGET_MESSAGE_MAX = 4_000;
