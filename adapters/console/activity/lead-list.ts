import { callJson, query } from '../api.js';
import type { Lead } from '../types.js';

// A chatbot's leads, newest first, as the Leads page keeps them: read whole once, then, each time
// the list is read again, only from the newest page down to the first page that holds a lead
// already shown. A new lead comes first and a correction keeps a lead's place (its `created_at`
// stays), so thousands of leads are read again in one request, not one per hundred.

const PAGE_SIZE = 100;

async function readPage(chatbotId: string, page: number): Promise<Lead[]> {
  const { collectedCustomers } = await callJson<{ collectedCustomers: Lead[] }>('GET', `/get-leads${query({ chatbotId, page, size: PAGE_SIZE })}`);
  return collectedCustomers;
}

/** Every lead of the chatbot; given those `shown`, the newest read again and the rest kept as shown. */
export async function readLeads(chatbotId: string, shown: Lead[] = []): Promise<Lead[]> {
  const known = new Set(shown.map((lead) => lead.id));
  const fresh: Lead[] = [];
  for (let page = 1; ; page += 1) {
    const leads = await readPage(chatbotId, page);
    fresh.push(...leads);
    if (leads.length < PAGE_SIZE) return fresh;
    if (leads.some((lead) => known.has(lead.id))) break;
  }
  // Those shown after the last one read again are as they were.
  const read = new Set(fresh.map((lead) => lead.id));
  return [...fresh, ...shown.slice(shown.findLastIndex((lead) => read.has(lead.id)) + 1)];
}
