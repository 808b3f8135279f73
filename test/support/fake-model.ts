import { createChatEngine, type ChatEngine } from '../../src/engine/index.js';
import { providerCatalogSchema, resolveApiKeys } from '../../src/engine/providers/catalog.js';
import { createProviderResponders } from '../../src/engine/providers/index.js';
import type { Store } from '../../src/store/port.js';
import type { FakeProvider } from '../fakes/provider-server.js';

/** A chat engine whose every model answers through the fake OpenAI server `provider` (real AI SDK). */
export function fakeModelEngine(provider: FakeProvider, timeoutMs = 3_000): (store: Store) => ChatEngine {
  const catalog = resolveApiKeys(
    providerCatalogSchema.parse(
      JSON.stringify({
        default: 'vendor1-4o-mini',
        families: { vendor1: { provider: 'openai', baseURL: provider.baseURL, apiKey: 'sk-test-secret', model: 'gpt-test' } },
      }),
    ),
    () => undefined,
  );
  const providerFor = createProviderResponders(catalog, { timeoutMs });
  return (store) => createChatEngine(store, { providerFor });
}
