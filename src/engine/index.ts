import type { Store } from '../store/port.js';
import type { ModelId } from './models.js';
import { offlineResponder } from './offline/index.js';
import type { Responder } from './responder.js';
import { createRetriever, type Retriever, type RetrieverOptions } from './retrieval.js';

/** Everything the chat use case needs from the engine. */
export type ChatEngine = {
  retriever: Retriever;
  /** The responder for a model: its configured provider, else the offline responder. */
  responderFor(model: ModelId): Responder;
};

export type EngineOptions = {
  /** Responders of configured providers; undefined for a model whose family has none. */
  providerFor?: (model: ModelId) => Responder | undefined;
  /** The index cache's budget and, when configured, the embedding model. */
  retrieval?: RetrieverOptions;
};

export function createChatEngine(store: Store, options: EngineOptions = {}): ChatEngine {
  const offline = offlineResponder();
  return {
    retriever: createRetriever(store, options.retrieval),
    responderFor: (model) => options.providerFor?.(model) ?? offline,
  };
}
