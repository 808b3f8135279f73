import { DateTime } from 'luxon';
import type { Digest } from '../../src/store/port.js';

// When a digest is due, computed from the subscription alone (pure, no clock of its own): each
// local date D of the subscription's timezone has one occurrence, the instant D at HH:MM there.
// A local time that does not exist (the spring-forward gap) runs at the first instant after the
// gap; one that happens twice (fall-back) runs at the first of the two. The run record is keyed
// by D, so a day runs once whatever the clock does.

/** A run later than this after its scheduled instant is not posted (recorded as missed). */
export const CATCH_UP_MS = 6 * 60 * 60 * 1000;

export type Occurrence = {
  /** `YYYY-MM-DD` in the subscription's timezone. */
  localDate: string;
  /** The instant the digest of that date is due. */
  scheduledAt: Date;
};

export type DueOccurrence = Occurrence & {
  /** Too late to post: no clock ran within CATCH_UP_MS of the scheduled instant. */
  missed: boolean;
};

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** The zone's UTC offset in minutes at an instant. */
const offsetAt = (zone: string, ms: number): number => DateTime.fromMillis(ms, { zone }).offset;

/**
 * The instant of `localDate` (`YYYY-MM-DD`) at `time` (`HH:MM`) in `timezone`. Throws on an
 * unknown timezone or malformed date or time.
 */
export function scheduledInstant(localDate: string, time: string, timezone: string): Date {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(localDate);
  const clock = /^(\d{2}):(\d{2})$/.exec(time);
  if (!date || !clock) throw new Error(`malformed local date or time: ${localDate} ${time}`);
  if (!DateTime.local().setZone(timezone).isValid) throw new Error(`unknown timezone: ${timezone}`);
  // The wall time read as if it were UTC; the real instant is this minus the offset in force then.
  const wall = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]), Number(clock[1]), Number(clock[2]));

  // The offsets that can be in force around that wall time: the day before's, the day after's.
  // (No zone changes its offset twice within two days.)
  const before = offsetAt(timezone, wall - DAY_MS);
  const after = offsetAt(timezone, wall + DAY_MS);
  const readings = [...new Set([before, after])]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => wall - offsetAt(timezone, instant) * MINUTE_MS === instant);
  // Once (the usual case) or twice (fall-back): the first.
  if (readings.length > 0) return new Date(Math.min(...readings));

  // Never (spring-forward gap): the first instant after the gap is the transition itself. It lies
  // between the wall time read with the later offset (still before the change) and with the
  // earlier one (already after); bisect to the millisecond.
  let low = wall - after * MINUTE_MS;
  let high = wall - before * MINUTE_MS;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (offsetAt(timezone, middle) === after) high = middle;
    else low = middle;
  }
  return new Date(high);
}

/** The local date of an instant in a timezone, `YYYY-MM-DD`. */
export function localDateOf(instant: Date, timezone: string): string {
  const date = DateTime.fromJSDate(instant, { zone: timezone }).toISODate();
  if (!date) throw new Error(`unknown timezone: ${timezone}`);
  return date;
}

/**
 * The subscription's latest occurrence at or before `now`, if it is due: scheduled no earlier than
 * the subscription was created. `missed` when it is CATCH_UP_MS or more in the past. Runs already
 * done are the run records' business, not this function's.
 */
export function dueOccurrence(digest: Pick<Digest, 'time' | 'timezone' | 'createdAt'>, now: Date): DueOccurrence | undefined {
  const today = DateTime.fromJSDate(now, { zone: digest.timezone });
  if (!today.isValid) throw new Error(`unknown timezone: ${digest.timezone}`);
  // Today's occurrence, or, before it comes, yesterday's (a 23:00 digest is caught up at 01:00).
  for (const day of [today, today.minus({ days: 1 })]) {
    const localDate = day.toISODate() as string;
    const scheduledAt = scheduledInstant(localDate, digest.time, digest.timezone);
    if (scheduledAt > now) continue;
    if (scheduledAt < digest.createdAt) return undefined;
    return { localDate, scheduledAt, missed: now.getTime() - scheduledAt.getTime() >= CATCH_UP_MS };
  }
  return undefined;
}
