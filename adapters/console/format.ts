// How the console writes dates and numbers: in the reader's own locale and time zone.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatTime = (iso: string): string => dateTime.format(new Date(iso));

const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** formatTime to the second, for what a minute may not tell apart. */
export const formatTimeSeconds = (iso: string): string => dateTimeSeconds.format(new Date(iso));

const count = new Intl.NumberFormat();

/** A count with the reader's digit grouping: 10,000 messages, not 10000. */
export const formatCount = (value: number): string => count.format(value);

/** A count and its noun, singular for one: "1 conversation", "1,200 messages". */
export const counted = (value: number, noun: string): string => `${formatCount(value)} ${noun}${value === 1 ? '' : 's'}`;

/** `YYYY-MM-DD`, the reader's own day `days` ago (the console's days are in the reader's time zone). */
export function localDayAgo(days: number): string {
  const day = new Date();
  day.setDate(day.getDate() - days);
  return [day.getFullYear(), day.getMonth() + 1, day.getDate()].map((part) => String(part).padStart(2, '0')).join('-');
}

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
