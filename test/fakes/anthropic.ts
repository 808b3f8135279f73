import { sse, startFakeProvider, type Dialect, type FakeProvider } from './provider-server.js';

// Anthropic's Messages API as `createAnthropic(...)` calls it: POST {baseURL}/messages with
// x-api-key and anthropic-version, a `message` JSON body, or with `stream: true` the named SSE
// events message_start, content_block_start, ping, content_block_delta (text_delta) …,
// content_block_stop, message_delta (stop_reason, usage) and message_stop.

const ID = 'msg_01XFDUDYJgAACzvnptvVoYEL';
const REQUEST_ID = 'req_011CSHoEeqs5C35K2UUqR7Fy';

const ERRORS: Record<number, { type: string; message: string }> = {
  401: { type: 'authentication_error', message: '' },
  429: {
    type: 'rate_limit_error',
    message:
      'This request would exceed the rate limit for your organization of 50 requests per minute. ' +
      'For details, refer to: https://docs.claude.com/en/api/rate-limits.',
  },
  500: { type: 'api_error', message: 'Internal server error' },
};

export const anthropicDialect: Dialect = {
  path: '/v1/messages',
  completion: (model, text) => ({
    id: ID,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: 42,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 7,
      service_tier: 'standard',
    },
  }),
  stream: (model, pieces) => ({
    opening: [
      sse(
        {
          type: 'message_start',
          message: {
            id: ID,
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 42, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1, service_tier: 'standard' },
          },
        },
        'message_start',
      ),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      sse({ type: 'ping' }, 'ping'),
    ],
    pieces: pieces.map((text) =>
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta'),
    ),
    closing: [
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse(
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } },
        'message_delta',
      ),
      sse({ type: 'message_stop' }, 'message_stop'),
    ],
  }),
  malformed: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"oo\n\n',
  error(status, request) {
    const error = ERRORS[status] ?? { type: 'api_error', message: `HTTP ${status}` };
    // A body that quotes the key it was given, so that a leak of the body into an error would show.
    const message = status === 401 ? `invalid x-api-key: ${String(request.headers['x-api-key'])}` : error.message;
    return {
      body: { type: 'error', error: { type: error.type, message }, request_id: REQUEST_ID },
      headers: { 'request-id': REQUEST_ID },
    };
  },
};

export function startFakeAnthropic(): Promise<FakeProvider> {
  return startFakeProvider(anthropicDialect);
}
