import { callJson } from './api.js';

// A listing whose API answers a page at a time with its total (open questions, contacts): the
// pages asked for so far, read one after another, so "Load more" adds one.

export type Paged<T> = { list: T[]; total: number };

/** Pages 1 to `pages` of `url(page)`, stopping at one that comes short. */
export async function readPages<T>(pages: number, size: number, url: (page: number) => string): Promise<Paged<T>> {
  const list: T[] = [];
  let total = 0;
  for (let page = 1; page <= pages; page += 1) {
    const listing = await callJson<{ data: T[]; total: number }>('GET', url(page));
    list.push(...listing.data);
    total = listing.total;
    if (listing.data.length < size) break;
  }
  return { list, total };
}
