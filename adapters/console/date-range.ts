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
