import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { chunkText } from '../../src/engine/chunking.js';
import { buildLexicalIndex, lexicalSearcher, type LexicalSearcher } from '../../src/engine/lexical-index.js';
import { createProviderResponders, type ProviderCatalog } from '../../src/engine/providers/index.js';
import type { Responder } from '../../src/engine/responder.js';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { defaultSettings } from '../../src/settings/chatbot-settings.js';
import { startFakeOpenAI } from '../fakes/openai.js';
import type { FakeProvider } from '../fakes/provider-server.js';
import { DEVELOPMENT, HELD_OUT_SET, documentText, type QuestionSet } from './eval/score.js';

// Context recall: what a model is given to answer from. For every answerable question of both
// evaluation sets, the passages are retrieved as POST /chat retrieves them and a real provider
// client sends the prompt to a fake OpenAI server, which records it; the passage holding the
// answer (every expected fragment) must be in it. Tokens are counted as characters / 4, the
// usual estimate for English.

const RECALL_FLOOR = 0.98;
const MEDIAN_CONTEXT_TOKENS = 800;
const MODEL = 'vendor1-4o-mini';

let fake: FakeProvider;
let responder: Responder;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  const families = { vendor1: { provider: 'openai', baseURL: fake.baseURL, apiKey: 'sk-test', model: 'gpt-4o-mini' } };
  const config = loadConfig({ MODEL_PROVIDERS: JSON.stringify({ families }) });
  responder = createProviderResponders(config.modelProviders as ProviderCatalog, { timeoutMs: 10_000 })(MODEL) as Responder;
  await loadWordVectors();
});

afterAll(() => fake.close());

/** The share of answerable questions whose answer reached the model, and the median context size in tokens. */
async function contextRecall(set: QuestionSet): Promise<{ recall: number; medianTokens: number; misses: string[] }> {
  const searchers = new Map<string, LexicalSearcher>();
  const settings = defaultSettings('Recall');
  const sizes: number[] = [];
  const misses: string[] = [];
  const answerable = set.questions.filter((q) => q.expected !== null && q.category !== 'small talk');
  for (const { document, question, after, expected } of answerable) {
    let search = searchers.get(document);
    if (!search) {
      const chunks = chunkText(documentText(document, set.folder)).map((text, seq) => ({ seq, text }));
      search = lexicalSearcher(buildLexicalIndex(chunks));
      searchers.set(document, search);
    }
    fake.requests.length = 0;
    await responder.complete({
      chatbotName: 'Recall',
      settings,
      messages: [...(after ? [{ role: 'user' as const, content: after }, { role: 'assistant' as const, content: '…' }] : []), { role: 'user', content: question }],
      passages: search({ question, context: after }, 4),
      contact: undefined,
      model: MODEL,
      temperature: 0,
      signal: new AbortController().signal,
    });
    const [system] = fake.requests[0]?.body.messages as { role: string; content: string }[];
    const prompt = String(system?.content);
    const context = /<passages>[\s\S]*<\/passages>/.exec(prompt)?.[0] ?? '';
    sizes.push(context.length / 4);
    if (![expected ?? []].flat().every((fragment) => context.includes(fragment))) misses.push(`${document}: ${question}`);
  }
  sizes.sort((a, b) => a - b);
  return { recall: 1 - misses.length / answerable.length, medianTokens: sizes[Math.floor(sizes.length / 2)] ?? 0, misses };
}

describe('context given to models', () => {
  const sets = { development: DEVELOPMENT, 'held-out': HELD_OUT_SET };
  it.each(Object.keys(sets) as (keyof typeof sets)[])(
    `holds the answer to nearly every answerable question of the %s set, within ${MEDIAN_CONTEXT_TOKENS} tokens at the median`,
    async (name) => {
      const { recall, medianTokens, misses } = await contextRecall(sets[name]);
      // The held-out set's misses are not listed: it is not to be tuned on.
      const listed = name === 'development' ? `; misses: ${misses.join('; ') || 'none'}` : `; ${misses.length} missed`;
      console.log(`context recall, ${name} set: ${(recall * 100).toFixed(1)}%, median ${medianTokens.toFixed(0)} tokens${listed}`);
      expect(recall).toBeGreaterThanOrEqual(RECALL_FLOOR);
      expect(medianTokens).toBeLessThanOrEqual(MEDIAN_CONTEXT_TOKENS);
    },
  );
});
