// A range of days from the console's "From" and "To" fields, checked before the API is asked:
// its refusal of a range is the contract's bare "Invalid request data". The days are the
// reader's, in the browser's time zone, on every page that takes a range.

const DAY_MS = 86_400_000;

/** The browser's time zone, an IANA name such as `Europe/Oslo`: the one the console's days are in. */
export const readerTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Why the range would be refused, in words that say what to change; undefined when it would not. */
export function rangeProblem(startDate: string, endDate: string, maxDays?: number): string | undefined {
  if (!startDate || !endDate) return undefined;
  if (startDate > endDate) return '“From” is after “To”: choose a From on or before the To.';
  const days = (Date.parse(endDate) - Date.parse(startDate)) / DAY_MS + 1;
  if (maxDays !== undefined && days > maxDays) return `That is ${days.toLocaleString('en')} days: choose at most ${maxDays} at a time.`;
  return undefined;
}

/** The load of a range: refused here, with why, rather than by the API. */
export const inRange = <T>(problem: string | undefined, load: () => Promise<T>): Promise<T> => (problem ? Promise.reject(new Error(problem)) : load());

/** The instant the reader's day `YYYY-MM-DD` begins (a date and time without a zone is read in the browser's). */
const readerMidnight = (day: string): number => Date.parse(`${day}T00:00:00`);
const nextDay = (day: string): string => new Date(Date.parse(day) + DAY_MS).toISOString().slice(0, 10);
const utcDay = (time: number): string => new Date(time).toISOString().slice(0, 10);

/** The reader's days from `startDate` to `endDate` (either blank for no bound), for a listing whose API takes UTC days. */
export type ReaderDays = {
  /** The UTC days that hold the reader's, for the API's `startDate` and `endDate` (blank where open). */
  utc: { startDate: string; endDate: string };
  /** Whether an ISO time is within the reader's days: what the UTC days hold beyond them is left out. */
  holds: (iso: string) => boolean;
};

export function readerDays(startDate: string, endDate: string): ReaderDays {
  const from = startDate ? readerMidnight(startDate) : -Infinity;
  const until = endDate ? readerMidnight(nextDay(endDate)) : Infinity;
  return {
    utc: { startDate: startDate && utcDay(from), endDate: endDate && utcDay(until - 1) },
    holds: (iso) => {
      const time = Date.parse(iso);
      return time >= from && time < until;
    },
  };
}
