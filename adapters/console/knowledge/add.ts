import { call, callData } from '../api.js';
import type { Source } from '../types.js';

// Adding sources the sources job reads: files (multipart, one `file` part each) and websites.
// Both answer 202 with the queued sources; the list then follows their status.

export const sourcesPath = (chatbotId: string) => `/chatbots/${encodeURIComponent(chatbotId)}/sources`;

export function uploadFiles(base: string, files: readonly File[]): Promise<Source[]> {
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  return callData<Source[]>('POST', base, form);
}

export function addWebsite(base: string, url: string, maxPages: number): Promise<Source> {
  return callData<Source>('POST', base, { type: 'website', url, maxPages });
}

export async function refreshSource(base: string, sourceId: string): Promise<void> {
  await call('POST', `${base}/${encodeURIComponent(sourceId)}/refresh`);
}

/** The default number of pages a crawl reads, as the API's. */
export const DEFAULT_MAX_PAGES = 50;
export const MAX_PAGES = 1_000;
