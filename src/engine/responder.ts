import type { ChatbotSettings } from '../settings/chatbot-settings.js';
import type { Passage } from './lexical-index.js';
import type { ModelId } from '../settings/models.js';
import type { Language } from '../settings/languages.js';

// A responder turns a conversation and the passages retrieved for it into reply text, as a
// stream of pieces. The offline responder and every LLM provider share this one shape, so the
// chat use case neither knows nor cares which one answers.

export type ChatTurn = { role: 'user' | 'assistant'; content: string };

/** What is known of the person chatting, when the request names a contact. */
export type ContactDetails = {
  name: string | null;
  email: string | null;
  phonenumber: string | null;
  customAttributes: Record<string, unknown>;
};

export type GivenDetails = { name: string | null; email: string | null; phone: string | null };

export type ResponderInput = {
  chatbotName: string;
  settings: ChatbotSettings;
  /** The conversation so far, ending with the message to answer. */
  messages: ChatTurn[];
  /** Training passages, best match first. */
  passages: Passage[];
  contact: ContactDetails | undefined;
  /** Contact details the user's latest message gives ("I'm Ada, ada@example.com"), if any. */
  given?: GivenDetails;
  model: ModelId;
  temperature: number;
  /** The language the person reads (the widget's window): the offline decline is said in it. */
  lang?: Language;
  /** Aborted when the client goes away: generation must stop. */
  signal: AbortSignal;
};

export type Responder = {
  /** Who answers, for metrics: the provider (`openai`, …); unset for the offline responder. */
  name?: string;
  /** The whole reply at once (providers use their non-streaming endpoint). */
  complete(input: ResponderInput): Promise<string>;
  /** The reply as it is generated; ends early, without error, only if the signal aborts. */
  stream(input: ResponderInput): AsyncIterable<string>;
};
