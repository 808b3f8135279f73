import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatEngine } from '../../src/engine/index.js';
import { Secret } from '../../src/engine/providers/secret.js';
import { createEmbedder, createProviderResponders } from '../../src/engine/providers/index.js';
import { startFakeOpenAI } from '../fakes/openai.js';
import type { FakeProvider } from '../fakes/provider-server.js';
import { createChatbotViaApi, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// Training embeds the chunks in the background, and POST /chat then gives the model the passage a
// paraphrase means: the real AI SDK against the fake OpenAI server, for chat and embeddings.

// Paragraphs long enough to make a chunk each.
const PARAGRAPHS = [
  'Velo Shop opens at 9am. '.repeat(30).trim(),
  'Returns are accepted within 30 days. '.repeat(20).trim(),
  'Parcels ship from Leeds. '.repeat(30).trim(),
];
const SOURCE = PARAGRAPHS.join('\n\n');
const MODEL = 'text-embedding-3-small';

describe.each(storeTargets.filter((target) => target.available))('$name store', (target) => {
  let provider: FakeProvider;
  let app: TestApp;

  beforeAll(async () => {
    provider = await startFakeOpenAI();
  });
  afterAll(async () => {
    await provider.close();
  });
  beforeEach(async () => {
    provider.requests.length = 0;
    provider.script({ type: 'reply', pieces: ['Within thirty days.'] });
    const settings = { provider: 'openai' as const, baseURL: provider.baseURL, apiKey: new Secret('sk-test') };
    const providerFor = createProviderResponders(
      {
        default: 'vendor1-4o-mini',
        families: { vendor1: { ...settings, model: 'gpt-test', models: {} } },
        embedding: { ...settings, model: MODEL },
      },
      { timeoutMs: 3_000 },
    );
    const embedder = createEmbedder({ ...settings, model: MODEL }, { timeoutMs: 3_000 });
    app = await startApp(target, { engine: (store) => createChatEngine(store, { providerFor, retrieval: { embedder } }) });
  });
  afterEach(async () => {
    await app.close();
  });

  it('embeds the chunks after training, and retrieves a paraphrase for the model', async () => {
    const chatbotId = await createChatbotViaApi(app, 'Velo', SOURCE);
    // The create request does not wait for the embedding; it follows in the background.
    while ((await app.store.retrieval.vectors(chatbotId, MODEL)).length < 3) await sleep(20);
    const embedded = provider.requests.filter((request) => request.path === '/v1/embeddings');
    expect(embedded.map((request) => request.body.input)).toEqual([PARAGRAPHS]);

    const response = await fetch(`${app.baseUrl}/chat`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${app.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ chatbotId, messages: [{ role: 'user', content: 'Can I get my money back?' }] }),
    });
    expect(await response.json()).toEqual({ text: 'Within thirty days.' });
    const completion = provider.requests.find((request) => request.path === '/v1/chat/completions');
    const [system] = completion?.body.messages as { content: string }[];
    // Ranked first: the passages go to the model best first (each with the text around it).
    const passages = String(system?.content).split('<passage number=').slice(1);
    expect(passages[0]).toContain('Returns are accepted within 30 days.');
  });
});
