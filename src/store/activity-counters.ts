import type { ConversationSource } from './conversation-sources.js';

// The activity counters, by name, as both adapters store them (one column or field each).

export const ACTIVITY_COUNTERS = [
  'conversations',
  'userMessages',
  'assistantMessages',
  'credits',
  'declined',
  'leads',
  'feedbackUp',
  'feedbackDown',
  'sourceApi',
  'sourceSlack',
  'sourceDiscord',
  'sourceWidget',
  'sourcePlayground',
] as const;

export type ActivityCounter = (typeof ACTIVITY_COUNTERS)[number];
export type ActivityCounts = Record<ActivityCounter, number>;
/** What one write adds; absent counters add nothing. */
export type ActivityTally = Partial<ActivityCounts>;

/** The counter of conversations started on a source. */
export const SOURCE_COUNTERS = {
  API: 'sourceApi',
  Slack: 'sourceSlack',
  Discord: 'sourceDiscord',
  'Widget or Iframe': 'sourceWidget',
  Playground: 'sourcePlayground',
} as const satisfies Record<ConversationSource, ActivityCounter>;

export const noActivity = (): ActivityCounts =>
  Object.fromEntries(ACTIVITY_COUNTERS.map((counter) => [counter, 0])) as ActivityCounts;

/** What an append of these messages adds, the conversation counted when the append creates it. */
export function appendTally(
  messages: readonly { role: 'user' | 'assistant' }[],
  created: ConversationSource | undefined,
  extra: ActivityTally = {},
): ActivityTally {
  const tally: ActivityTally = { ...extra };
  const user = messages.filter((message) => message.role === 'user').length;
  tally.userMessages = (tally.userMessages ?? 0) + user;
  tally.assistantMessages = (tally.assistantMessages ?? 0) + messages.length - user;
  if (created) {
    tally.conversations = (tally.conversations ?? 0) + 1;
    tally[SOURCE_COUNTERS[created]] = (tally[SOURCE_COUNTERS[created]] ?? 0) + 1;
  }
  return tally;
}

const HOUR_MS = 3_600_000;

/** The UTC hour holding an instant, as its start's milliseconds. */
export const hourOf = (at: Date) => Math.floor(at.getTime() / HOUR_MS) * HOUR_MS;
