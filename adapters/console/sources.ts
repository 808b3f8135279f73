/**
 * The conversation sources get-conversations' `filteredSources` accepts, as the hub lists them
 * (src/store/conversation-sources.ts; a test keeps the two equal).
 */
export const CONVERSATION_SOURCES = [
  'API',
  'Slack',
  'Discord',
  'Widget or Iframe',
  'Playground',
  'WhatsApp',
  'Messenger',
  'Instagram',
  'Action preview',
];
