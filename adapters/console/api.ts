import { signedOut } from './state.js';

// Every call the console makes: the API under /api/v1, with the session cookie the hub set at
// sign-in. State-changing calls carry the header the hub requires of console sessions; a 401
// means the session ended, and the console shows the sign-in page again.

export const API = '/api/v1';
const CONSOLE_HEADER = { 'X-Switchboard-Console': '1' };

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A failure that may pass if asked again: the hub not reached, its own failure, a timeout, or too many requests. */
export const mayPass = (error: unknown): boolean =>
  error instanceof ApiError && (error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500);

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * The raw response of a call that succeeded, whose body the caller reads to its end (an answer
 * left unread keeps its request open, and a reload then aborts it); a failure throws its
 * `{message}` as an ApiError.
 */
export async function call(method: Method, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = method === 'GET' ? {} : { ...CONSOLE_HEADER };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(API + path, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiError('The hub cannot be reached. Check your connection and try again.', 0);
  }
  if (response.ok) return response;
  const message = await failureMessage(response);
  if (response.status === 401) signedOut(true);
  throw new ApiError(message, response.status);
}

/** A call whose answer the console does not use, read all the same. */
export async function send(method: Method, path: string, body?: unknown): Promise<void> {
  await (await call(method, path, body)).arrayBuffer();
}

export async function callJson<T>(method: Method, path: string, body?: unknown): Promise<T> {
  return (await call(method, path, body)).json() as Promise<T>;
}

/** `{message, data}` answers: the data. */
export async function callData<T>(method: Method, path: string, body?: unknown): Promise<T> {
  return (await callJson<{ data: T }>(method, path, body)).data;
}

/**
 * The work's refusal, by its status, in words that say what to change: the API's bodies are the
 * contract's few fixed sentences ("Invalid request data"), the same whatever was wrong.
 */
export async function explained<T>(work: Promise<T>, reasons: Partial<Record<number, string>>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new ApiError(reasons[error.status] ?? error.message, error.status);
  }
}

export const query = (params: Record<string, string | number | undefined>): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

async function failureMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON (a proxy's page): fall back on the status.
  }
  return `The hub answered ${response.status} ${response.statusText}`.trim();
}
