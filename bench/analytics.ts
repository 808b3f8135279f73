import { hourOf } from '../src/store/activity-counters.js';
import { startBenchHub, type BenchHub } from './hub.js';
import { load, median } from './load.js';
import type { BenchOptions, Figure, Section } from './section.js';

// Analytics of a chatbot (and of its account) over 30 days, with a million messages against a
// thousand, each on its own chatbot, on SQLite and, when MONGODB_URI names a server, on MongoDB.
// The counters are seeded through the store's own write path (ActivityRepository.add), one write
// per hour holding that hour's messages, spread over the range as they would arrive: a thousand
// messages touch a few hundred hours, a million every one of the 720. Latencies are medians at
// one connection, each figure measured in pairs with its baseline.

const DAYS = 30;
const HOUR_MS = 3_600_000;
const FIRST_DAY = '2026-03-01';
const LAST_DAY = '2026-03-30';
/** Writes at once while seeding: a network store's round trips overlap. */
const SEEDING_WRITES = 32;

/** `messages` spread over the range's hours (a fixed pseudo-random sequence), counted per hour. */
async function seedActivity(hub: BenchHub, chatbotId: string, messages: number): Promise<void> {
  const start = Date.parse(`${FIRST_DAY}T00:00:00Z`);
  const hours = DAYS * 24;
  const perHour = new Map<number, number>();
  let seed = 12345;
  for (let i = 0; i < Math.min(messages, hours * 10); i += 1) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const hour = hourOf(new Date(start + (seed % hours) * HOUR_MS));
    perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
  }
  // Past ten a hour every hour has some: scale the counts up to the total.
  const scale = messages / [...perHour.values()].reduce((sum, count) => sum + count, 0);
  const writes = [...perHour].map(([hour, count]) => {
    const assistant = Math.round((count * scale) / 2);
    return () =>
      hub.store.activity.add(chatbotId, new Date(hour), {
        conversations: Math.ceil(assistant / 4),
        sourceApi: Math.ceil(assistant / 4),
        userMessages: assistant,
        assistantMessages: assistant,
        credits: assistant,
        declined: Math.floor(assistant / 10),
      });
  });
  for (let first = 0; first < writes.length; first += SEEDING_WRITES) {
    await Promise.all(writes.slice(first, first + SEEDING_WRITES).map((write) => write()));
  }
}

async function run(options: BenchOptions): Promise<Figure[]> {
  const figures = await onEngine(options, 'SQLite');
  const mongodbUri = process.env.MONGODB_URI;
  if (mongodbUri) figures.push(...(await onEngine(options, 'MongoDB', mongodbUri)));
  return figures;
}

async function onEngine({ quick }: BenchOptions, engine: string, mongodbUri?: string): Promise<Figure[]> {
  const seconds = quick ? 0.5 : 3;
  const hub = await startBenchHub(mongodbUri);
  const latency = async (path: string) => {
    const request = hub.get(path);
    await load(request, { connections: 1, seconds: seconds / 2 });
    return median((await load(request, { connections: 1, seconds })).latencies);
  };
  const range = `startDate=${FIRST_DAY}&endDate=${LAST_DAY}&timezone=Europe/Oslo`;
  /** Each figure right after its baseline, `rounds` times: the median of the pairs' ratios moves less with the load. */
  const paired = async (path: string, baselinePath: string) => {
    const pairs: { value: number; baseline: number }[] = [];
    for (let round = 0; round < (quick ? 3 : 5); round += 1) {
      pairs.push({ baseline: await latency(baselinePath), value: await latency(path) });
    }
    return {
      value: median(pairs.map((pair) => pair.value)),
      baselineValue: median(pairs.map((pair) => pair.baseline)),
      ratio: median(pairs.map((pair) => pair.value / pair.baseline)),
    };
  };
  try {
    const small = await hub.createChatbot('A thousand messages', 'Rows.');
    const large = await hub.createChatbot('A million messages', 'Rows.');
    await seedActivity(hub, small, 1_000);
    await seedActivity(hub, large, 1_000_000);
    const smallPath = `/chatbots/${small}/analytics?${range}`;
    return [
      {
        name: `${engine} chatbot analytics, 30 days of 1,000,000 messages`,
        ...(await paired(`/chatbots/${large}/analytics?${range}`, smallPath)),
        unit: 'ms',
        baseline: '30 days of 1,000 messages',
        // Rows follow the hours with activity, not the messages: 720 against about 540 here.
        goal: { atMost: 2 },
      },
      {
        name: `${engine} account analytics, 30 days of both chatbots`,
        ...(await paired(`/analytics?${range}`, smallPath)),
        unit: 'ms',
        baseline: 'one chatbot of 1,000 messages',
        goal: { atMost: 3 },
      },
    ];
  } finally {
    await hub.dispose();
  }
}

export const analyticsSection: Section = { name: 'analytics: a million messages against a thousand', run };
