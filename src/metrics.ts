import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { atEndOfTurn } from './end-of-turn.js';

// Every Prometheus metric Switchboard exports, in one place: other modules import the function
// or metric they record to, and GET /metrics serves `registry`. Labels stay few and bounded
// (route patterns, never paths; no account or chatbot ids), so series do not grow with use.

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const FAST = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const SLOW = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const httpRequestDuration = new Histogram({
  name: 'switchboard_http_request_duration_seconds',
  help: 'HTTP requests by route pattern, method and status; _count is the number of requests',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: FAST,
  registers: [registry],
});

export const chatReplies = new Counter({
  name: 'switchboard_chat_replies_total',
  help: 'Chat replies produced in full, by responder, model and conversation source',
  labelNames: ['responder', 'model', 'source'] as const,
  registers: [registry],
});

export const chatFirstToken = new Histogram({
  name: 'switchboard_chat_first_token_seconds',
  help: 'Time from the start of a streamed reply to its first piece',
  labelNames: ['responder'] as const,
  buckets: SLOW,
  registers: [registry],
});

export const chatTokens = new Counter({
  name: 'switchboard_chat_tokens_total',
  help: 'Model tokens used, by model and kind (input or output)',
  labelNames: ['model', 'kind'] as const,
  registers: [registry],
});

export const chatCredits = new Counter({
  name: 'switchboard_chat_credits_used_total',
  help: 'Message credits used (one per reply saved and counted)',
  registers: [registry],
});

export const retrievalDuration = new Histogram({
  name: 'switchboard_retrieval_duration_seconds',
  help: 'Time to find the passages for one question',
  buckets: FAST,
  registers: [registry],
});

const storeQueryDuration = new Histogram({
  name: 'switchboard_store_query_duration_seconds',
  help: 'Store calls by operation (repository.method)',
  labelNames: ['operation'] as const,
  buckets: FAST,
  registers: [registry],
});

export type Platform = 'slack' | 'discord';

export const platformEvents = new Counter({
  name: 'switchboard_platform_events_total',
  help: 'Slack and Discord events handled, by platform and event',
  labelNames: ['platform', 'event'] as const,
  registers: [registry],
});

export const platformApiErrors = new Counter({
  name: 'switchboard_platform_api_errors_total',
  help: 'Failed Slack and Discord API calls; kind is rate_limited (429) or error',
  labelNames: ['platform', 'kind'] as const,
  registers: [registry],
});

export const digestRuns = new Counter({
  name: 'switchboard_digest_runs_total',
  help: 'Lead digest runs by platform and outcome (posted, skipped, missed, failed)',
  labelNames: ['platform', 'status'] as const,
  registers: [registry],
});

export const webhookRuns = new Counter({
  name: 'switchboard_webhook_runs_total',
  help: 'Webhook delivery attempts by outcome (delivered or failed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Reads the extraction child's resident memory; the extraction module sets it when it loads. */
let extractionResidentBytes = () => 0;

// The child reading files can hold hundreds of megabytes that process_resident_memory_bytes (the
// hub's alone) does not show: it is read at scrape time, so it is never stale.
new Gauge({
  name: 'switchboard_extraction_process_resident_memory_bytes',
  help: 'Resident memory of the child process reading uploaded files, 0 when none runs',
  registers: [registry],
  collect() {
    this.set(extractionResidentBytes());
  },
});

/** Where the extraction child's memory is read from at scrape time. */
export function measureExtractionMemory(read: () => number): void {
  extractionResidentBytes = read;
}

type Series = ReturnType<Histogram['labels']>;

/**
 * The child of `histogram` for one label set, found by a string key: on hot paths this is
 * cheaper than prom-client hashing a labels object on every observation. Label sets are bounded
 * (route patterns, statuses, store operations), so the cache is too.
 */
function seriesCache(histogram: Histogram): (key: string, labels: string[]) => Series {
  const children = new Map<string, Series>();
  return (key, labels) => {
    let child = children.get(key);
    if (!child) {
      child = histogram.labels(...labels);
      children.set(key, child);
    }
    return child;
  };
}

const httpSeries = seriesCache(httpRequestDuration);
const storeSeries = seriesCache(storeQueryDuration);

/** One HTTP request, as the request log sees it when the response ends. */
export function recordHttpRequest(method: string, route: string, status: number, seconds: number): void {
  httpSeries(`${method} ${status} ${route}`, [method, route, String(status)]).observe(seconds);
}

const observeStoreQuery = atEndOfTurn(({ operation, seconds }: { operation: string; seconds: number }) => {
  storeSeries(operation, [operation]).observe(seconds);
});

/** Starts timing one store call (for `timedStore`); the answer stops it. */
export function timeStoreQuery(operation: string): () => void {
  const start = performance.now();
  return () => observeStoreQuery({ operation, seconds: (performance.now() - start) / 1000 });
}

/** Tokens a model call used, as the AI SDK reports them (counts it does not know are left out). */
export function recordTokens(model: string, usage: { inputTokens?: number; outputTokens?: number }): void {
  chatTokens.inc({ model, kind: 'input' }, usage.inputTokens ?? 0);
  chatTokens.inc({ model, kind: 'output' }, usage.outputTokens ?? 0);
}

/** One webhook delivery attempt; the webhook jobs call this once per attempt. */
export function recordWebhookRun(outcome: 'delivered' | 'failed'): void {
  webhookRuns.inc({ outcome });
}

/** A Slack or Discord API call that failed; `status` is the HTTP status when there was one. */
export function recordPlatformApiError(platform: Platform, status?: number): void {
  platformApiErrors.inc({ platform, kind: status === 429 ? 'rate_limited' : 'error' });
}

/** Seconds since `start` (a `performance.now()` reading). */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
