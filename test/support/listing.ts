// Query-string helpers and the malformed listing parameters that every listing endpoint refuses.

export type QueryParams = Record<string, string | string[]>;

/** `?a=1&b=x&b=y`: arrays become repeated parameters. */
export function queryString(params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of [value].flat()) search.append(name, one);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Bad `startDate`, `endDate`, `page` and `size` values, each answered 400 `Invalid request data`. */
export const INVALID_LISTING_PARAMS: [string, QueryParams][] = [
  ['a day that does not exist (2026-02-30)', { startDate: '2026-02-30' }],
  ['29 February of a common year', { endDate: '2026-02-29' }],
  ['a month 13', { startDate: '2026-13-01' }],
  ['an unpadded date (2026-1-5)', { startDate: '2026-1-5' }],
  ['a date-time instead of a date', { endDate: '2026-01-05T00:00:00Z' }],
  ['a day-first date', { startDate: '05-01-2026' }],
  ['a word for a date', { endDate: 'yesterday' }],
  ['an empty startDate', { startDate: '' }],
  ['a startDate after the endDate', { startDate: '2026-03-11', endDate: '2026-03-10' }],
  ['two startDates', { startDate: ['2026-03-01', '2026-03-02'] }],
  ['page 0', { page: '0' }],
  ['page -1', { page: '-1' }],
  ['page 1.5', { page: '1.5' }],
  ['page abc', { page: 'abc' }],
  ['page 1e2', { page: '1e2' }],
  ['an empty page', { page: '' }],
  ['a page past 1000000', { page: '1000001' }],
  ['two pages', { page: ['1', '2'] }],
  ['size 0', { size: '0' }],
  ['size -1', { size: '-1' }],
  ['size 1.5', { size: '1.5' }],
  ['size 101', { size: '101' }],
  ['size abc', { size: 'abc' }],
  ['a huge size', { size: '99999999999999999999' }],
];
