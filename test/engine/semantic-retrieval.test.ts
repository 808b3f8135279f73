import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/engine/embeddings.js';
import { createEmbedder } from '../../src/engine/providers/index.js';
import { Secret } from '../../src/engine/providers/secret.js';
import { createRetriever } from '../../src/engine/retrieval.js';
import type { Chatbot, Store } from '../../src/store/port.js';
import { DIMENSIONS } from '../fakes/embeddings.js';
import { startFakeOpenAI } from '../fakes/openai.js';
import type { FakeProvider } from '../fakes/provider-server.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Semantic retrieval through the AI SDK's embedMany against the fake OpenAI embeddings endpoint,
// on every store adapter: the same material and questions give the same passages everywhere.

const FAQ = [
  'Parcels ship from our warehouse in Leeds within two working days.',
  'Returns are free within thirty days; print the label from your account page.',
  'The warranty covers manufacturing defects for two years from delivery.',
  'Gift cards never expire and can be used online or in any of our shops.',
];
// Shares no word with any passage; its meaning is the returns passage's.
// Shares no word with the returns passage, nor (by word vectors) a near one: lexical retrieval misses it.
const PARAPHRASE = 'Will I be reimbursed?';

const train = (store: Store, chatbotId: string, chunks: string[]) =>
  store.training.replace(chatbotId, { sourceText: chunks.join('\n\n'), chunks });

describe.each(storeTargets.filter((target) => target.available))('$name store: semantic retrieval', (target) => {
  let provider: FakeProvider;
  let embedder: Embedder;
  let store: Store;
  let bot: Chatbot;

  const embeddingRequests = () => provider.requests.filter((request) => request.path === '/v1/embeddings');
  const embeddedInputs = () => embeddingRequests().flatMap((request) => request.body.input as string[]);

  beforeAll(async () => {
    provider = await startFakeOpenAI();
    embedder = createEmbedder(
      { provider: 'openai', baseURL: provider.baseURL, apiKey: new Secret('sk-test'), model: 'text-embedding-3-small' },
      { timeoutMs: 5_000 },
    );
  });
  afterAll(async () => {
    await provider.close();
  });
  beforeEach(async () => {
    provider.requests.length = 0;
    provider.script({ type: 'reply', pieces: ['unused'] });
    store = await target.open();
    bot = await seedChatbot(store, await seedAccount(store));
  });
  afterEach(async () => {
    await store.close();
  });

  it('finds a paraphrase that lexical retrieval misses', async () => {
    await train(store, bot.id, FAQ);
    expect(await createRetriever(store).search(bot.id, PARAPHRASE)).toEqual([]);

    const retriever = createRetriever(store, { embedder });
    await (await retriever.prepare(bot.id)).embedded;
    const passages = await retriever.search(bot.id, PARAPHRASE, { limit: 2 });
    expect(passages).toHaveLength(2);
    expect(passages[0]).toMatchObject({ text: FAQ[1], seq: 1, score: expect.any(Number) });
    // The question went to the model as the SDK sends it, with the configured model and key.
    const question = embeddingRequests().at(-1);
    expect(question?.body).toMatchObject({ model: 'text-embedding-3-small', input: [PARAPHRASE] });
    expect(question?.headers.authorization).toBe('Bearer sk-test');

    // The vectors (float32) and the passages' texts count towards the cache's bytes.
    const lexical = createRetriever(store);
    await (await lexical.prepare(bot.id)).embedded;
    const texts = FAQ.reduce((sum, text) => sum + 2 * text.length, 0);
    expect(retriever.cachedBytes() - lexical.cachedBytes()).toBe(texts + FAQ.length * DIMENSIONS * 4);
  });

  it('fuses both rankings: a passage both find comes first', async () => {
    await train(store, bot.id, FAQ);
    const retriever = createRetriever(store, { embedder });
    await (await retriever.prepare(bot.id)).embedded;
    const passages = await retriever.search(bot.id, 'warranty for a broken lamp');
    expect(passages[0]?.seq).toBe(2);
    const scores = passages.map((passage) => passage.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('embeds at preparation in batches, and a retrain embeds only the chunks that changed', async () => {
    await train(store, bot.id, FAQ);
    const retriever = createRetriever(store, { embedder });
    await (await retriever.prepare(bot.id)).embedded;
    expect(embeddedInputs().sort()).toEqual([...FAQ].sort());

    provider.requests.length = 0;
    const revised = [FAQ[0] ?? '', 'Refunds reach your card within five days.', FAQ[2] ?? '', FAQ[3] ?? ''];
    await train(store, bot.id, revised);
    await (await retriever.prepare(bot.id)).embedded;
    expect(embeddedInputs()).toEqual(['Refunds reach your card within five days.']);
    expect((await retriever.search(bot.id, PARAPHRASE, { limit: 1 }))[0]?.text).toBe(revised[1]);

    // A second process finds every vector stored: it embeds only questions.
    provider.requests.length = 0;
    const second = createRetriever(store, { embedder });
    await (await second.prepare(bot.id)).embedded;
    expect(embeddingRequests()).toHaveLength(0);
    // The replaced chunk's vector is gone from the store.
    expect((await store.retrieval.vectors(bot.id, 'text-embedding-3-small')).length).toBe(4);
  });

  it('resumes an interrupted embedding run, and answers lexically meanwhile', async () => {
    const many = Array.from({ length: 150 }, (_, i) => `Shop ${i} sells gift cards and ships parcels.`);
    await train(store, bot.id, many);
    // The first batch is stored, then the provider fails for good.
    let served = 0;
    const failing: Embedder = {
      ...embedder,
      async embedChunks(texts) {
        if (served >= 1) throw new Error('provider down');
        served += 1;
        return embedder.embedChunks(texts);
      },
    };
    const errors: string[] = [];
    const interrupted = createRetriever(store, { embedder: failing, onError: (_, what) => errors.push(what) });
    await (await interrupted.prepare(bot.id)).embedded;
    expect(errors).toEqual([`embedding the chunks of chatbot ${bot.id}`]);
    expect(await interrupted.search(bot.id, 'gift cards', { limit: 2 })).toHaveLength(2);
    const storedFirst = (await store.retrieval.vectors(bot.id, embedder.model)).length;
    expect(storedFirst).toBe(64);

    provider.requests.length = 0;
    await (await createRetriever(store, { embedder }).prepare(bot.id)).embedded;
    expect(embeddedInputs()).toHaveLength(150 - 64);
  });

  it('answers lexically when the provider fails at question time', async () => {
    await train(store, bot.id, FAQ);
    const errors: string[] = [];
    const retriever = createRetriever(store, { embedder, onError: (_, what) => errors.push(what) });
    await (await retriever.prepare(bot.id)).embedded;
    provider.script({ type: 'error', status: 500 });
    const passages = await retriever.search(bot.id, 'How long does the warranty last?');
    expect(passages[0]?.text).toBe(FAQ[2]);
    expect(errors).toEqual(['embedding a question']);
  });
});
