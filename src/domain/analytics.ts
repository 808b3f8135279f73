import { DateTime } from 'luxon';
import { ACTIVITY_COUNTERS, noActivity, SOURCE_COUNTERS, type ActivityCounts } from '../store/activity-counters.js';
import { CONVERSATION_SOURCES } from '../store/conversation-sources.js';
import type { Account, ActivityScope, ConversationSource, Store } from '../store/port.js';
import { MAX_DAYS } from './analytics-range.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { invalidRequest } from './errors.js';

// Activity per day in a time zone, summed from the store's hourly counters: the answer reads at
// most 24 rows a day (per chatbot), however many messages there were. An hour belongs to the day
// its start falls on in the zone, which is exact for every zone whose offsets are whole hours; in
// a zone offset by a half or quarter hour (Asia/Kolkata, Asia/Kathmandu), a day is read from the
// first whole UTC hour after its midnight.

/** The default range ends today and spans this many days. */
const DEFAULT_DAYS = 30;

export type AnalyticsQuery = {
  /** `YYYY-MM-DD` in the zone, inclusive; both default to the DEFAULT_DAYS ending today. */
  startDate?: string;
  endDate?: string;
  /** IANA name; UTC by default. */
  timezone?: string;
};

export type DayActivity = {
  conversations: number;
  messages: { user: number; assistant: number };
  credits: number;
  bySource: Record<ConversationSource, number>;
  feedback: { up: number; down: number };
  declined: number;
  leads: number;
};

export type Analytics = { days: (DayActivity & { date: string })[]; totals: DayActivity };

export async function chatbotAnalytics(store: Store, account: Account, chatbotId: string, query: AnalyticsQuery): Promise<Analytics> {
  await findOwnedChatbot(store, account, chatbotId);
  return analytics(store, { chatbotId }, query);
}

export function accountAnalytics(store: Store, account: Account, query: AnalyticsQuery): Promise<Analytics> {
  return analytics(store, { accountId: account.id }, query);
}

async function analytics(store: Store, scope: ActivityScope, query: AnalyticsQuery): Promise<Analytics> {
  const zone = query.timezone ?? 'UTC';
  if (!DateTime.now().setZone(zone).isValid) throw invalidRequest(`unknown time zone ${zone}`);
  const end = query.endDate ? DateTime.fromISO(query.endDate, { zone }) : DateTime.now().setZone(zone).startOf('day');
  const start = query.startDate ? DateTime.fromISO(query.startDate, { zone }) : end.minus({ days: DEFAULT_DAYS - 1 });
  if (end < start) throw invalidRequest('startDate is after endDate');
  const dates: string[] = [];
  // Each day's start is compared: where a daylight-saving change skips midnight, that day starts at
  // 01:00, and the days counted on from it keep the hour, so the last one would be after `end`.
  for (let day = start; day.startOf('day') <= end; day = day.plus({ days: 1 })) {
    if (dates.length === MAX_DAYS) throw invalidRequest(`a range of more than ${MAX_DAYS} days`);
    dates.push(day.toISODate() as string);
  }

  const byDate = new Map(dates.map((date) => [date, noActivity()]));
  // Whole hours from the one holding the first midnight to the one holding the midnight after.
  const from = start.startOf('day').toUTC().startOf('hour').toJSDate();
  const to = end.plus({ days: 1 }).startOf('day').toUTC().startOf('hour').toJSDate();
  for (const { hour, counts } of await store.activity.hours(scope, from, to)) {
    const day = byDate.get(DateTime.fromJSDate(hour, { zone }).toISODate() as string);
    if (day) for (const counter of ACTIVITY_COUNTERS) day[counter] += counts[counter];
  }
  const totals = noActivity();
  for (const counts of byDate.values()) for (const counter of ACTIVITY_COUNTERS) totals[counter] += counts[counter];
  return {
    days: dates.map((date) => ({ date, ...dayActivity(byDate.get(date) ?? noActivity()) })),
    totals: dayActivity(totals),
  };
}

function dayActivity(counts: ActivityCounts): DayActivity {
  return {
    conversations: counts.conversations,
    messages: { user: counts.userMessages, assistant: counts.assistantMessages },
    credits: counts.credits,
    bySource: Object.fromEntries(CONVERSATION_SOURCES.map((source) => [source, counts[SOURCE_COUNTERS[source]]])) as Record<
      ConversationSource,
      number
    >,
    feedback: { up: counts.feedbackUp, down: counts.feedbackDown },
    declined: counts.declined,
    leads: counts.leads,
  };
}
