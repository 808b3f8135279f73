import type { ConversationSource } from './port.js';

/** Every value of ConversationSource, in the order documented for `filteredSources`. */
export const CONVERSATION_SOURCES = [
  'API',
  'Slack',
  'Discord',
  'Widget or Iframe',
  'Playground',
] as const satisfies readonly ConversationSource[];
