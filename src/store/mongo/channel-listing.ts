import type { BindingFilter } from '../port.js';

/**
 * The condition listing an account's bindings or digests: the given filter fields as equality
 * conditions, absent ones matching anything (as the SQLite adapter's channel listing does).
 */
export function channelListing(accountId: string, filter: BindingFilter): Record<string, string> {
  const given = Object.entries(filter).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { ...Object.fromEntries(given), accountId };
}
