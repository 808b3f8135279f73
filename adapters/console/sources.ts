/**
 * The sources this hub records conversations from, for the Activity filter, as the hub lists
 * them (src/store/conversation-sources.ts; a test keeps the two equal). `filteredSources` also
 * takes the hosted reference's other names, which never match here.
 */
export const CONVERSATION_SOURCES = ['API', 'Slack', 'Discord', 'Widget or Iframe', 'Playground'];
