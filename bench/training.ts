import { performance } from 'node:perf_hooks';
import { startBenchHub } from './hub.js';
import { max, median, quantile, startLoad } from './load.js';
import type { BenchOptions, Figure, Section } from './section.js';
import { generateText } from './text.js';

// Training a 10 MB source through POST /create-chatbot and the first question (which builds the
// index), against JSON parse+stringify of the same body and against a tiny source; and the p99
// and worst latency of get-chatbots at 4 connections while that runs, against the same load on
// an idle hub. The load generator shares this process, so the body is serialized before the load.
// The same create on a hub serving nothing else shows how much of the loaded figure is the
// training's own work and how much is waiting for a core the bystanders hold; and the CPU time
// the hub spends on it (all its threads, from /proc) against that of JSON parse+stringify of
// the body, a ratio that moves little with the machine's load, where on a busy shared machine
// the times themselves grow several times over.

const SOURCE_CHARS = 10 * 1024 * 1024;
const QUESTION = 'Who calibrates the dimmer switches in Tallinn?';
const BYSTANDERS = 4;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** The CPU time (user and system) this process spends on the work, in ms. */
function cpuMs(work: () => unknown): number {
  const start = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

async function run({ quick }: BenchOptions): Promise<Figure[]> {
  const runs = quick ? 1 : 3;
  const hub = await startBenchHub();
  try {
    const body = { chatbotName: 'Ten megabytes', sourceText: generateText(SOURCE_CHARS) };
    const text = JSON.stringify(body);
    const ask = (chatbotId: string) => hub.send('/chat', { chatbotId, messages: [{ role: 'user', content: QUESTION }] });
    const bystander = hub.get('/get-chatbots');

    const json: number[] = [];
    const tiny: number[] = [];
    const creates: number[] = [];
    const quietCreates: number[] = [];
    const jsonCpu: number[] = [];
    const quietCpu: number[] = [];
    const firsts: number[] = [];
    const idle: number[][] = [];
    const busy: number[][] = [];
    for (let i = 0; i < runs; i += 1) {
      json.push(await timed(async () => JSON.stringify(JSON.parse(text))));
      jsonCpu.push(cpuMs(() => JSON.stringify(JSON.parse(text))));
      tiny.push(await timed(() => hub.createChatbot(`Tiny ${i}`, 'Our shop opens at nine.')));
      const cpuBefore = await hub.served.cpuMicros();
      quietCreates.push(await timed(() => hub.send('/create-chatbot', text)));
      quietCpu.push(((await hub.served.cpuMicros()) - cpuBefore) / 1000);

      idle.push((await startLoad(bystander, { connections: BYSTANDERS, seconds: 3 }).done).latencies);

      // A training that blocks the event loop shows here as one long wait, not as a timeout.
      const during = startLoad(bystander, { connections: BYSTANDERS, seconds: 600, timeoutSeconds: 300 });
      let chatbotId = '';
      creates.push(await timed(async () => (chatbotId = ((await hub.send('/create-chatbot', text)) as { chatbotId: string }).chatbotId)));
      firsts.push(await timed(() => ask(chatbotId)));
      busy.push((await during.stop()).latencies);
    }
    const trainAndAsk = creates.map((ms, i) => ms + (firsts[i] as number));
    const jsonMs = median(json);
    return [
      // Issue #25's goal, at most 10× "its JSON parse", came with "34× today (1.7 s)": a baseline of
      // about 50 ms, this one's. The in-process section holds training to JSON.parse alone (11 ms).
      { name: 'create-chatbot, 10 MB source', value: median(creates), unit: 'ms', baseline: 'JSON parse+stringify of it', baselineValue: jsonMs, goal: { atMost: 10 } },
      { name: 'create-chatbot, 10 MB source, no other requests', value: median(quietCreates), unit: 'ms', baseline: 'JSON parse+stringify of it', baselineValue: jsonMs },
      { name: "the hub's CPU time for it (all threads)", value: median(quietCpu), unit: 'ms', baseline: 'CPU time of JSON parse+stringify of it', baselineValue: median(jsonCpu) },
      { name: 'first question (index build)', value: median(firsts), unit: 'ms', baseline: 'JSON parse+stringify of it', baselineValue: jsonMs },
      { name: 'train + first question', value: median(trainAndAsk), unit: 'ms', baseline: 'create-chatbot, tiny source', baselineValue: median(tiny) },
      {
        name: `p99 get-chatbots latency meanwhile (${BYSTANDERS} connections)`,
        value: median(busy.map((latencies) => quantile(latencies, 0.99))),
        unit: 'ms',
        baseline: 'p99 latency, idle hub',
        baselineValue: median(idle.map((latencies) => quantile(latencies, 0.99))),
        goal: { atMost: 50, of: 'value' },
      },
      {
        name: `worst get-chatbots latency meanwhile (${BYSTANDERS} connections)`,
        value: median(busy.map(max)),
        unit: 'ms',
        baseline: 'worst latency, idle hub',
        baselineValue: median(idle.map(max)),
      },
    ];
  } finally {
    await hub.dispose();
  }
}

export const trainingSection: Section = { name: `Training a ${SOURCE_CHARS / 1024 / 1024} MB source`, run };
