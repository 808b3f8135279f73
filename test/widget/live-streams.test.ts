import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createConversationWatch, WATCH_INTERVAL_MS, type Watcher } from '../../src/http/conversation-watch.js';
import { startHub } from '../../src/hub.js';
import { openStore } from '../../src/store/index.js';
import type { Conversation, Store } from '../../src/store/port.js';
import { openEvents } from '../support/events.js';

// What keeps the widget's live streams cheap and tidy: one read per watched conversation per
// pass, none once nobody watches, and every stream ended by the hub when it shuts down (timers
// faked, so nothing waits for time).

const silent = pino({ level: 'silent' });

describe('the conversation watch', () => {
  let store: Store;
  let reads: string[];

  beforeEach(async () => {
    vi.useFakeTimers();
    const opened = await openStore('sqlite::memory:');
    reads = [];
    store = {
      ...opened,
      close: () => opened.close(),
      conversations: {
        ...opened.conversations,
        find: async (chatbotId: string, id: string) => {
          reads.push(id);
          if (id === 'broken' && reads.filter((read) => read === 'broken').length === 1) throw new Error('the store is away');
          return opened.conversations.find(chatbotId, id);
        },
      },
    };
  });
  afterEach(async () => {
    vi.useRealTimers();
    await store.close();
  });

  const watcher = () => {
    const seen: (Conversation | undefined)[] = [];
    const ended: boolean[] = [];
    const handle: Watcher = { read: (conversation) => seen.push(conversation), end: () => ended.push(true) };
    return { handle, seen, ended };
  };
  const pass = () => vi.advanceTimersByTimeAsync(WATCH_INTERVAL_MS);

  it('reads each watched conversation once a pass, however many follow it, and stops reading when nobody does', async () => {
    const watch = createConversationWatch({ store, logger: silent });
    const [first, second, third] = [watcher(), watcher(), watcher()];
    const stops = [watch.watch('bot', 'c1', first.handle), watch.watch('bot', 'c1', second.handle), watch.watch('bot', 'c2', third.handle)];
    await pass();
    expect(reads.sort()).toEqual(['c1', 'c2']);
    expect([first.seen, second.seen, third.seen]).toEqual([[undefined], [undefined], [undefined]]);

    for (const stop of stops) stop();
    reads = [];
    await pass();
    await pass();
    expect(reads).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reads again after a failed read, and ends every watcher when closed', async () => {
    const watch = createConversationWatch({ store, logger: silent });
    const { handle, seen, ended } = watcher();
    watch.watch('bot', 'broken', handle);
    await pass();
    expect(seen).toEqual([]);
    await pass();
    expect(seen).toEqual([undefined]);

    watch.close();
    expect(ended).toEqual([true]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('a hub shutting down', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'switchboard-streams-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('ends its live streams (the browsers reconnect elsewhere), so they never hold up its close', async () => {
    const hub = await startHub(loadConfig({ DATABASE_URL: `sqlite:${join(directory, 'hub.db')}`, PORT: '0' }), silent);
    const origin = hub.apiUrl.replace('/api/v1', '');
    const headers = { Authorization: `Bearer ${hub.firstApiKey}`, 'Content-Type': 'application/json' };
    const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }).then((response) => response.json());
    const { chatbotId } = (await post(`${hub.apiUrl}/create-chatbot`, { chatbotName: 'Shop', sourceText: 'We open at nine in the morning.' })) as {
      chatbotId: string;
    };
    await post(`${hub.apiUrl}/update-chatbot-settings`, { chatbotId, visibility: 'public', handoff: { enabled: true } });
    const conversation = `${origin}/widget/chatbots/${chatbotId}/conversations/wc_${'s'.repeat(24)}`;
    await post(`${conversation}/handoff`, {});
    const { events } = await openEvents(`${conversation}/events`);
    expect((await events.next())?.data).toMatchObject({ status: 'pending' });

    // The drain's deadline never comes: only the hub ending its streams lets the close finish.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const closed = hub.close();
      expect(await events.next()).toBeUndefined();
      await closed;
    } finally {
      vi.useRealTimers();
    }
  });
});
