import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  NoOutputGeneratedError,
  TypeValidationError,
} from 'ai';

// What a failed provider call becomes. The AI SDK's errors carry the request body (the whole
// prompt, contact details included) and the provider's response body (OpenAI's 401 quotes part of
// the key), so none of them is kept, not even as `cause`: the message says which family failed
// and how, with the HTTP status and the provider's error code when there is one.

/** Which configured provider a call went to, and how long it had. */
export type CallContext = { family: string; provider: string; timeoutMs: number };

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly family: string;
  /** The provider's HTTP status, when it answered with one. */
  readonly status: number | undefined;

  constructor(context: CallContext, problem: string, status?: number) {
    super(`Model provider for ${context.family} (${context.provider}) ${problem}`);
    this.family = context.family;
    this.status = status;
  }
}

export function timedOut(context: CallContext): ProviderError {
  return new ProviderError(context, `did not finish within ${context.timeoutMs} ms`);
}

/** A stream that stopped without the provider saying it had finished. */
export function truncated(context: CallContext): ProviderError {
  return new ProviderError(context, 'ended its stream before finishing the reply');
}

export function providerFailure(error: unknown, context: CallContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const status = APICallError.isInstance(error) ? error.statusCode : undefined;
  if (status !== undefined && status >= 300) {
    const code = errorCode(APICallError.isInstance(error) ? error.data : undefined);
    return new ProviderError(context, `answered HTTP ${status}${code ? ` (${code})` : ''}`, status);
  }
  // A successful status whose body could not be read arrives as an APICallError too.
  if (causes(error).some(isMalformed)) return new ProviderError(context, 'sent a malformed response');
  if (NoOutputGeneratedError.isInstance(error)) return truncated(context);
  const code = causes(error)
    .map((cause) => (cause as { code?: unknown }).code)
    .find((value): value is string => typeof value === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(value));
  return new ProviderError(context, `could not be reached or dropped the connection${code ? ` (${code})` : ''}`);
}

/** The error and the causes under it; network failures nest their reason (ECONNREFUSED) deep. */
function causes(error: unknown): object[] {
  const chain: object[] = [];
  let cause = error;
  while (typeof cause === 'object' && cause !== null && chain.length < 5) {
    chain.push(cause);
    cause = (cause as { cause?: unknown }).cause;
  }
  return chain;
}

function isMalformed(error: unknown): boolean {
  return (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error) ||
    EmptyResponseBodyError.isInstance(error)
  );
}

/** The provider's machine-readable error code or type (`rate_limit_exceeded`, `overloaded_error`). */
function errorCode(data: unknown): string | undefined {
  const error = (data as { error?: { code?: unknown; type?: unknown } } | undefined)?.error;
  const code = [error?.code, error?.type].find((value) => typeof value === 'string');
  return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? code : undefined;
}
