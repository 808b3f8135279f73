// The bounds a chatbot's settings are held to (chatbot-settings.ts), as plain numbers: the console
// checks its Settings draft against the same ones before it sends it (adapters/console/settings/draft.ts).

/** Characters of a chatbot's name, of a display name and of a lead form field's label. */
export const MAX_NAME = 200;
export const MAX_INSTRUCTIONS = 50_000;
/** Characters of a message the chatbot says as written: the IP limit's, the handoff's waiting and offline messages. */
export const MAX_MESSAGE = 1_000;
export const MAX_LEAD_FORM_TITLE = 500;
/** Characters of a Slack or Discord workspace or channel id. */
export const MAX_CHANNEL_ID = 100;
/** A list's bounds: how many items, and characters in one. */
export const MESSAGE_LIST = { items: 50, chars: 2_000 };
export const DOMAIN_LIST = { items: 100, chars: 253 };
export const KEYWORD_LIST = { items: 50, chars: 100 };
/** ipLimit and ipLimitTimeframe. */
export const MAX_COUNT = 1_000_000_000;
/** Seconds before the chat window opens by itself. */
export const MAX_AUTO_OPEN = 86_400;
export const MAX_DECLINES = 100;
/** Handoff waits, in minutes: down to 3 seconds (so tests and demos need not wait), up to a week. */
export const WAIT_MINUTES = { min: 0.05, max: 10_080 };
