import type { Store } from '../store/port.js';
import type { ModelId } from '../settings/models.js';
import { offlineResponder } from './offline/index.js';
import type { Responder } from './responder.js';
import { createRetriever, type Retriever, type RetrieverOptions } from './retrieval.js';

/** Everything the chat use case needs from the engine. */
export type ChatEngine = {
  retriever: Retriever;
  /** How many of a conversation's latest messages a responder sees (the question included). */
  historyMessages: number;
  /** The responder for a model: its configured provider, else the offline responder. */
  responderFor(model: ModelId): Responder;
};

/** Ten exchanges: enough for follow-ups, and well inside any model's context. */
export const DEFAULT_HISTORY_MESSAGES = 20;

export type EngineOptions = {
  historyMessages?: number;
  /** Responders of configured providers; undefined for a model whose family has none. */
  providerFor?: (model: ModelId) => Responder | undefined;
  /** The index cache's budget and, when configured, the embedding model. */
  retrieval?: RetrieverOptions;
};

export function createChatEngine(store: Store, options: EngineOptions = {}): ChatEngine {
  const offline = offlineResponder();
  return {
    retriever: createRetriever(store, options.retrieval),
    historyMessages: options.historyMessages ?? DEFAULT_HISTORY_MESSAGES,
    responderFor: (model) => options.providerFor?.(model) ?? offline,
  };
}
