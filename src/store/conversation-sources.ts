/** Where a conversation took place, in the order documented for `filteredSources`. */
export const CONVERSATION_SOURCES = ['API', 'Slack', 'Discord', 'Widget or Iframe', 'Playground'] as const;

export type ConversationSource = (typeof CONVERSATION_SOURCES)[number];
