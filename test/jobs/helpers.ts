import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { Account, Chatbot, Digest, Lead, Store } from '../../src/store/port.js';

// Shared by the digest job tests: seeds, a silent logger, a clock the test moves by hand, and a
// platform that fails every call.

export const silent = pino({ level: 'silent' });

/** Long before any instant the tests tick at, so every occurrence counts. */
export const SUBSCRIBED = new Date('2025-06-01T00:00:00.000Z');

export const at = (iso: string) => new Date(iso);
export const plusMinutes = (instant: Date, minutes: number) => new Date(instant.getTime() + minutes * 60_000);

/** A clock the test sets; the scheduler reads it through `now`. */
export function manualClock(start: Date) {
  let current = start;
  return {
    now: () => current,
    set(instant: Date) {
      current = instant;
    },
  };
}

export async function seedDigest(
  store: Store,
  account: Account,
  chatbot: Chatbot,
  overrides: Partial<Digest> = {},
): Promise<Digest> {
  return store.digests.upsert({
    id: randomUUID(),
    accountId: account.id,
    chatbotId: chatbot.id,
    platform: 'slack',
    workspaceId: 'T0TEAM0001',
    channelId: 'C0DIGEST01',
    time: '09:00',
    timezone: 'Europe/Oslo',
    postWhenEmpty: false,
    createdAt: SUBSCRIBED,
    updatedAt: SUBSCRIBED,
    ...overrides,
  });
}

let leadNumber = 0;

export async function seedLead(store: Store, chatbot: Chatbot, createdAt: Date, overrides: Partial<Lead> = {}): Promise<Lead> {
  leadNumber += 1;
  const lead: Lead = {
    id: `lead-${String(leadNumber).padStart(5, '0')}`,
    chatbotId: chatbot.id,
    accountId: chatbot.accountId,
    name: `Visitor ${leadNumber}`,
    email: `visitor${leadNumber}@example.com`,
    phone: `+47 400 ${String(leadNumber).padStart(5, '0')}`,
    conversationId: null,
    createdAt,
    ...overrides,
  };
  await store.leads.insert(lead);
  return lead;
}

/** `count` leads of the chatbot, one a minute, the newest a minute before `before`. */
export async function seedLeads(store: Store, chatbot: Chatbot, before: Date, count: number): Promise<Lead[]> {
  const leads: Lead[] = [];
  for (let index = 1; index <= count; index += 1) leads.push(await seedLead(store, chatbot, plusMinutes(before, -index)));
  return leads;
}

/** An HTTP server that answers every request 503, as a platform in an outage does. */
export async function startOutage() {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests += 1;
    res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"ok":false,"error":"service_unavailable"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    requests: () => requests,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
