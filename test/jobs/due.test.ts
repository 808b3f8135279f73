import { describe, expect, it } from 'vitest';
import { CATCH_UP_MS, dueOccurrence, localDateOf, scheduledInstant } from '../../jobs/digest/due.js';

// When a digest is due: the scheduled instant of each local day, daylight-saving changes, and the
// catch-up window. Pure: no clock, no store.

const at = (iso: string) => new Date(iso);
const CREATED = at('2025-01-01T00:00:00.000Z');
const subscription = (time: string, timezone: string, createdAt = CREATED) => ({ time, timezone, createdAt });

describe('scheduledInstant', () => {
  it('places HH:MM in the subscription’s zone, winter and summer', () => {
    expect(scheduledInstant('2026-01-15', '09:00', 'Europe/Oslo')).toEqual(at('2026-01-15T08:00:00.000Z'));
    expect(scheduledInstant('2026-07-15', '09:00', 'Europe/Oslo')).toEqual(at('2026-07-15T07:00:00.000Z'));
    expect(scheduledInstant('2026-01-15', '09:00', 'America/New_York')).toEqual(at('2026-01-15T14:00:00.000Z'));
    expect(scheduledInstant('2026-07-15', '09:00', 'America/New_York')).toEqual(at('2026-07-15T13:00:00.000Z'));
    expect(scheduledInstant('2026-07-15', '09:00', 'UTC')).toEqual(at('2026-07-15T09:00:00.000Z'));
    expect(scheduledInstant('2026-07-15', '23:59', 'Asia/Kolkata')).toEqual(at('2026-07-15T18:29:00.000Z'));
  });

  it('runs a time skipped by spring-forward at the first instant after the gap', () => {
    // Oslo 2026-03-29: 02:00 CET becomes 03:00 CEST at 01:00Z; 02:30 never happens.
    expect(scheduledInstant('2026-03-29', '02:30', 'Europe/Oslo')).toEqual(at('2026-03-29T01:00:00.000Z'));
    expect(scheduledInstant('2026-03-29', '02:00', 'Europe/Oslo')).toEqual(at('2026-03-29T01:00:00.000Z'));
    expect(scheduledInstant('2026-03-29', '03:00', 'Europe/Oslo')).toEqual(at('2026-03-29T01:00:00.000Z'));
    expect(scheduledInstant('2026-03-29', '03:30', 'Europe/Oslo')).toEqual(at('2026-03-29T01:30:00.000Z'));
    // New York 2026-03-08: 02:00 EST becomes 03:00 EDT at 07:00Z.
    expect(scheduledInstant('2026-03-08', '02:30', 'America/New_York')).toEqual(at('2026-03-08T07:00:00.000Z'));
  });

  it('runs a time that happens twice on fall-back at the first of the two', () => {
    // Oslo 2026-10-25: 02:30 happens at 00:30Z (CEST) and again at 01:30Z (CET).
    expect(scheduledInstant('2026-10-25', '02:30', 'Europe/Oslo')).toEqual(at('2026-10-25T00:30:00.000Z'));
    expect(scheduledInstant('2026-10-25', '03:00', 'Europe/Oslo')).toEqual(at('2026-10-25T02:00:00.000Z'));
    // New York 2026-11-01: 01:30 happens at 05:30Z (EDT) and 06:30Z (EST).
    expect(scheduledInstant('2026-11-01', '01:30', 'America/New_York')).toEqual(at('2026-11-01T05:30:00.000Z'));
  });

  it('refuses an unknown zone or a malformed time', () => {
    expect(() => scheduledInstant('2026-03-10', '09:00', 'Mars/Olympus')).toThrow(/timezone/);
    expect(() => scheduledInstant('2026-03-10', '9:00', 'UTC')).toThrow(/malformed/);
  });
});

describe('dueOccurrence', () => {
  const oslo = subscription('09:00', 'Europe/Oslo');

  it('is nothing before the first occurrence after the subscription was made', () => {
    const created = at('2026-03-10T10:00:00.000Z');
    expect(dueOccurrence(subscription('09:00', 'Europe/Oslo', created), at('2026-03-10T12:00:00.000Z'))).toBeUndefined();
    expect(dueOccurrence(subscription('09:00', 'Europe/Oslo', created), at('2026-03-11T08:00:00.000Z'))).toEqual({
      localDate: '2026-03-11',
      scheduledAt: at('2026-03-11T08:00:00.000Z'),
      missed: false,
    });
  });

  it('is today’s occurrence from its instant on, yesterday’s before it', () => {
    expect(dueOccurrence(oslo, at('2026-03-10T07:59:59.999Z'))).toEqual({
      localDate: '2026-03-09',
      scheduledAt: at('2026-03-09T08:00:00.000Z'),
      missed: true,
    });
    expect(dueOccurrence(oslo, at('2026-03-10T08:00:00.000Z'))).toEqual({
      localDate: '2026-03-10',
      scheduledAt: at('2026-03-10T08:00:00.000Z'),
      missed: false,
    });
  });

  it('catches up for less than six hours, then counts the occurrence as missed', () => {
    const scheduled = at('2026-03-10T08:00:00.000Z').getTime();
    expect(dueOccurrence(oslo, new Date(scheduled + CATCH_UP_MS - 1))?.missed).toBe(false);
    expect(dueOccurrence(oslo, new Date(scheduled + CATCH_UP_MS))?.missed).toBe(true);
    expect(CATCH_UP_MS).toBe(6 * 3_600_000);
  });

  it('catches up a late-evening digest after local midnight', () => {
    // 23:30 in New York is 04:30Z next day (EDT); at 01:00 local (05:00Z) it is 1.5 h late.
    expect(dueOccurrence(subscription('23:30', 'America/New_York'), at('2026-07-16T05:00:00.000Z'))).toEqual({
      localDate: '2026-07-15',
      scheduledAt: at('2026-07-16T03:30:00.000Z'),
      missed: false,
    });
  });

  it('names the local date in the subscription’s zone, not UTC’s', () => {
    const instant = at('2026-07-15T23:30:00.000Z');
    expect(localDateOf(instant, 'Europe/Oslo')).toBe('2026-07-16');
    expect(localDateOf(instant, 'America/New_York')).toBe('2026-07-15');
    expect(dueOccurrence(subscription('01:00', 'Europe/Oslo'), instant)?.localDate).toBe('2026-07-16');
  });
});
