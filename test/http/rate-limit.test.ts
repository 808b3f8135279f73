import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, createChatbotViaApi, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

const LIMITED = { message: 'Rate limit exceeded. Please try again later.' };
const PER_MINUTE = 5;

describe.each(storeTargets.filter((target) => target.available))('$name store', (target) => {
  let app: TestApp;
  let chatbotId: string;

  beforeEach(async () => {
    // A fixed clock (Date only; timers and I/O stay real) so no test straddles a window edge.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T12:00:15Z'));
    app = await startApp(target, { contactsRateLimitPerMinute: PER_MINUTE });
    chatbotId = await createChatbotViaApi(app);
  });
  afterEach(async () => {
    await app.close();
    vi.useRealTimers();
  });

  const attributesUrl = () => `${app.baseUrl}/chatbots/${chatbotId}/custom-attributes`;
  const contactUrl = (id: string) => `${app.baseUrl}/chatbots/${chatbotId}/contacts/${id}`;

  it('answers 429 with Retry-After once a key has used its minute, across contact and attribute endpoints', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE - 1; i += 1) statuses.push((await call('GET', attributesUrl(), app.apiKey)).status);
    statuses.push((await call('GET', contactUrl('nobody'), app.apiKey)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 404]);

    const response = await fetch(attributesUrl(), { headers: { Authorization: `Bearer ${app.apiKey}` } });
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual(LIMITED);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBe(45);
    expect(response.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('counts concurrent requests exactly', async () => {
    const results = await Promise.all(
      Array.from({ length: PER_MINUTE + 7 }, () => call('GET', attributesUrl(), app.apiKey)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(PER_MINUTE);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7);
  });

  it('gives every key its own budget and leaves other endpoints alone', async () => {
    await Promise.all(Array.from({ length: PER_MINUTE + 1 }, () => call('GET', attributesUrl(), app.apiKey)));
    expect((await call('GET', attributesUrl(), app.apiKey)).status).toBe(429);
    expect((await call('GET', `${app.baseUrl}/get-chatbots`, app.apiKey)).status).toBe(200);

    const { apiKey: otherKey } = await app.addAccount('other');
    const otherBot = await createChatbotViaApi({ baseUrl: app.baseUrl, apiKey: otherKey });
    const other = await call('GET', `${app.baseUrl}/chatbots/${otherBot}/custom-attributes`, otherKey);
    expect(other.status).toBe(200);
  });

  it('opens a fresh budget when the minute turns', async () => {
    await Promise.all(Array.from({ length: PER_MINUTE + 1 }, () => call('GET', attributesUrl(), app.apiKey)));
    expect((await call('GET', attributesUrl(), app.apiKey)).status).toBe(429);
    vi.setSystemTime(new Date('2026-06-01T12:01:00Z'));
    expect((await call('GET', attributesUrl(), app.apiKey)).status).toBe(200);
  });

  it('does not count requests without a valid key', async () => {
    for (let i = 0; i < PER_MINUTE + 2; i += 1) {
      expect((await call('GET', attributesUrl(), 'sb_wrong')).status).toBe(401);
    }
    expect((await call('GET', attributesUrl(), app.apiKey)).status).toBe(200);
  });
});
