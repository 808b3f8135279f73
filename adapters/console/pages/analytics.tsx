import { useMemo, useState } from 'preact/hooks';
import { callData, query } from '../api.js';
import { DayChart, type Series } from '../analytics/chart.js';
import { UnansweredQuestions } from '../analytics/unanswered.js';
import { DayRangeFields } from '../components/day-range.js';
import { MAX_DAYS } from '../../../src/domain/analytics-range.js';
import { inRange, rangeProblem, readerTimeZone } from '../date-range.js';
import { counted, formatCount, localDayAgo } from '../format.js';
import { Show, useLoad } from '../use-load.js';
import type { ChatbotPageProps } from './chatbot-section.js';

// Per-day charts of the chatbot's conversations, messages and credits, its answers rated up and
// down, and the questions it declined, to answer or dismiss. Loaded with its own chunk (uPlot),
// not with the console.

type Counters = {
  conversations: number;
  messages: { user: number; assistant: number };
  credits: number;
  feedback: { up: number; down: number };
  declined: number;
  leads: number;
};
type Analytics = { days: (Counters & { date: string })[]; totals: Counters };

const DAYS_SHOWN = 30;

export function AnalyticsPage({ chatbot }: ChatbotPageProps) {
  const [startDate, setStartDate] = useState(() => localDayAgo(DAYS_SHOWN - 1));
  const [endDate, setEndDate] = useState(() => localDayAgo(0));
  const base = `/chatbots/${encodeURIComponent(chatbot.id)}`;
  const problem = rangeProblem(startDate, endDate, MAX_DAYS);
  const analytics = useLoad(
    () => inRange(problem, () => callData<Analytics>('GET', `${base}/analytics${query({ startDate, endDate, timezone: readerTimeZone() })}`)),
    [base, startDate, endDate],
  );

  return (
    <>
      <div class="card">
        <DayRangeFields startDate={startDate} endDate={endDate} onStartDate={setStartDate} onEndDate={setEndDate} />
      </div>
      <Show loaded={analytics} label="Loading the analytics" retries="the charts">
        {(data) => <Charts data={data} />}
      </Show>
      <UnansweredQuestions base={base} />
    </>
  );
}

function Charts({ data }: { data: Analytics }) {
  const days = useMemo(() => data.days.map((day) => day.date), [data]);
  const pick = (label: string, colour: string, value: (day: Counters) => number): Series => ({ label, colour, values: data.days.map(value) });
  const activity = useMemo(
    () => [
      pick('Conversations', '#1f77b4', (day) => day.conversations),
      pick('Messages', '#ff7f0e', (day) => day.messages.user + day.messages.assistant),
      pick('Credits', '#2ca02c', (day) => day.credits),
    ],
    [data],
  );
  const answers = useMemo(
    () => [
      pick('Rated helpful', '#2ca02c', (day) => day.feedback.up),
      pick('Rated not helpful', '#d62728', (day) => day.feedback.down),
      pick('Declined', '#9467bd', (day) => day.declined),
    ],
    [data],
  );
  const { totals } = data;
  return (
    <>
      <p role="status">
        In these days: {counted(totals.conversations, 'conversation')}, {counted(totals.messages.user + totals.messages.assistant, 'message')},{' '}
        {counted(totals.credits, 'credit')}, {counted(totals.feedback.up, 'answer')} rated helpful and {formatCount(totals.feedback.down)} not,{' '}
        {formatCount(totals.declined)} declined.
      </p>
      <DayChart title="Conversations, messages and credits per day" days={days} series={activity} />
      <DayChart title="Answers rated and declined per day" days={days} series={answers} />
    </>
  );
}
