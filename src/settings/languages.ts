// The languages the website widget speaks: its window's own words, and the texts the hub writes
// into a widget conversation until the chatbot's owner writes their own.

export const LANGUAGES = ['en', 'es', 'de', 'fr', 'it', 'nl'] as const;

export type Language = (typeof LANGUAGES)[number];
