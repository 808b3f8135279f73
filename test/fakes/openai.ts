import { embeddingsReply } from './embeddings.js';
import { sse, startFakeProvider, type Dialect, type FakeProvider } from './provider-server.js';

// OpenAI's Chat Completions API as the AI SDK's `createOpenAI(...).chat(model)` and
// `createOpenAICompatible(...)` call it: POST {baseURL}/chat/completions, a `chat.completion`
// JSON body, or with `stream: true` `chat.completion.chunk` SSE data lines ending with the
// usage chunk, only when the request asks for it with stream_options.include_usage as OpenAI
// does, and `data: [DONE]`. Embeddings are served as well (see embeddings.ts).

const ID = 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT';
const CREATED = 1741569952;
const FINGERPRINT = 'fp_06737a9306';
const USAGE = {
  prompt_tokens: 42,
  completion_tokens: 7,
  total_tokens: 49,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

function chunk(model: string, choices: unknown[], usage: unknown = null) {
  return sse({
    id: ID,
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
    choices,
    usage,
  });
}

const delta = (content: Record<string, unknown>, finishReason: string | null = null) => ({
  index: 0,
  delta: content,
  logprobs: null,
  finish_reason: finishReason,
});

const ERRORS: Record<number, { message: string; type: string; code: string | null }> = {
  401: { message: '', type: 'invalid_request_error', code: 'invalid_api_key' },
  429: {
    message:
      'Rate limit reached for gpt-4o-mini in organization org-fake on requests per min (RPM): ' +
      'Limit 3, Used 3, Requested 1. Please try again in 20s.',
    type: 'requests',
    code: 'rate_limit_exceeded',
  },
  500: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    code: null,
  },
};

export const openaiDialect: Dialect = {
  path: '/v1/chat/completions',
  embeddings: { path: '/v1/embeddings', reply: embeddingsReply },
  completion: (model, text) => ({
    id: ID,
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: USAGE,
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
  }),
  stream: (model, pieces, body) => ({
    opening: [chunk(model, [delta({ role: 'assistant', content: '', refusal: null })])],
    pieces: pieces.map((piece) => chunk(model, [delta({ content: piece })])),
    closing: [
      chunk(model, [delta({}, 'stop')]),
      ...((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage ? [chunk(model, [], USAGE)] : []),
      sse('[DONE]'),
    ],
  }),
  malformed: `data: {"id":"${ID}","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"oo\n\n`,
  error(status, request) {
    const error = ERRORS[status] ?? { message: `HTTP ${status}`, type: 'server_error', code: null };
    // Like OpenAI, the 401 message quotes the key it was given (masked there, whole here, so
    // that a leak of the body into an error would show).
    const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    const message = status === 401 ? `Incorrect API key provided: ${key}.` : error.message;
    return {
      body: { error: { ...error, message, param: null } },
      headers: { 'x-request-id': 'req_7d4c0f0f5b8f4d3c9a2e1b0a9c8d7e6f' },
    };
  },
};

export function startFakeOpenAI(): Promise<FakeProvider> {
  return startFakeProvider(openaiDialect);
}
