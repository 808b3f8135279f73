import { DateTime } from 'luxon';
import { z } from 'zod';
import { isTimeZone } from '../../domain/integrations.js';
import type { Page, TimeRange } from '../../store/port.js';
import { parseInput } from '../validation.js';

// Query parameters shared by the listing endpoints: `page` and `size`, and the creation-day
// range `startDate`..`endDate`, days of `timezone` (UTC unless given).

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;
/** Deep pages cost an offset scan; past this, a client should narrow the date range instead. */
const MAX_PAGE = 1_000_000;

/** Decimal digits only, so "1.5", "-1", "1e2" and " 2" are refused rather than coerced. */
const wholeNumber = (max: number) =>
  z
    .string()
    .regex(/^\d+$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

/** `page` (1-based, default 1) and `size` (default 20, at most 100). */
export const pageQuery = z.object({
  page: wholeNumber(MAX_PAGE).default(1),
  size: wholeNumber(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});

const dateRangeFields = {
  startDate: z.iso.date().optional(),
  endDate: z.iso.date().optional(),
  timezone: z
    .string()
    .refine(isTimeZone, 'not an IANA time zone')
    .optional()
    .meta({ description: 'The days’ time zone, an IANA name (`Europe/Oslo`); UTC unless given (an extension).' }),
};

/** When a day of the zone begins: its midnight, or the first hour after where a daylight-saving change skips it. */
const dayStart = (day: string, zone: string): Date => DateTime.fromISO(day, { zone }).startOf('day').toJSDate();
const dayAfter = (day: string): string => DateTime.fromISO(day, { zone: 'UTC' }).plus({ days: 1 }).toISODate() as string;

/** `startDate` and `endDate`, both inclusive whole days of `timezone`. */
const dateRangeQuery = z
  .object(dateRangeFields)
  .refine(({ startDate, endDate }) => !startDate || !endDate || startDate <= endDate, 'startDate is after endDate')
  .transform(
    ({ startDate, endDate, timezone = 'UTC' }): TimeRange => ({
      from: startDate === undefined ? undefined : dayStart(startDate, timezone),
      to: endDate === undefined ? undefined : new Date(dayStart(dayAfter(endDate), timezone).getTime() - 1),
    }),
  );

/**
 * A parameter naming values comma-separated and/or repeated (`a,b`, or `x=a&x=b`), as its parts;
 * blank parts are ignored.
 */
export const commaSeparated = z
  .union([z.string(), z.array(z.string())])
  .transform((given) => [given].flat().flatMap((value) => value.split(',')).map((part) => part.trim()).filter((part) => part !== ''));

/** The query parameters of a listing, for the API's description. */
export const listingQuery = pageQuery.extend(dateRangeFields);

/** The time range and page a listing query asks for; anything malformed is an invalid request. */
export function parseListing(query: unknown): { range: TimeRange; page: Page } {
  return { range: parseInput(dateRangeQuery, query), page: parseInput(pageQuery, query) };
}
