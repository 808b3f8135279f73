import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { createAccount } from '../../src/domain/accounts.js';
import type { SourceLimits } from '../../src/domain/sources.js';
import type { ChatEngine } from '../../src/engine/index.js';
import { API_PREFIX, createApp } from '../../src/http/app.js';
import { answerParserRefusals } from '../../src/http/parser-refusals.js';
import type { Quota, Store } from '../../src/store/port.js';
import type { StoreTarget } from './stores.js';

// Runs the real app over real HTTP (an ephemeral port, global fetch) on a fresh store.

export const DEFAULT_QUOTA: Quota = { messagesPerMonth: 1_000, maxChatbots: 50 };

export type TestApp = {
  /** Where the API answers, with the version prefix: http://127.0.0.1:PORT/api/v1. */
  baseUrl: string;
  /** The server's root, for routes outside the API prefix (/healthz, public assets). */
  origin: string;
  /** The key of the account created at start. */
  apiKey: string;
  accountId: string;
  store: Store;
  /** How many connections the server still holds (closed ones, however they closed, are gone). */
  openConnections(): Promise<number>;
  /** Creates another account on the same store and answers its key. */
  addAccount(name: string, quota?: Quota): Promise<{ apiKey: string; accountId: string }>;
  close(): Promise<void>;
};

export type StartOptions = {
  quota?: Quota;
  logger?: Logger;
  /** Lets a test hand the app a different view of the store (e.g. one that fails on purpose). */
  wrapStore?: (store: Store) => Store;
  contactsRateLimitPerMinute?: number;
  /** The chat engine to use instead of the default (offline responder only). */
  engine?: (store: Store) => ChatEngine;
  webhookAllowPrivate?: boolean;
  /** SOURCES_ALLOW_PRIVATE: for website sources on the test's own local sites. */
  sourcesAllowPrivate?: boolean;
  /** TRUST_PROXY: client IPs from X-Forwarded-For. */
  trustProxy?: boolean;
  /** METRICS_TOKEN: GET /metrics then wants it as a bearer token. */
  metricsToken?: string;
  /** PUBLIC_URL: the console's origin and whether its cookies are Secure. */
  publicUrl?: string;
  /** CONSOLE_SESSION_IDLE_HOURS. */
  consoleSessionIdleHours?: number;
  /** SOURCES_MAX_FILE_MB and SOURCES_MAX_CHARS_PER_CHATBOT. */
  sourceLimits?: SourceLimits;
  /** Whether the hub is stopping (readiness then answers 503). */
  stopping?: () => boolean;
};

export async function startApp(target: StoreTarget, options: StartOptions = {}): Promise<TestApp> {
  const store = await target.open();
  const { account, apiKey } = await createAccount(store, 'primary', options.quota ?? DEFAULT_QUOTA);
  const app = createApp({
    store: options.wrapStore ? options.wrapStore(store) : store,
    logger: options.logger ?? pino({ level: 'silent' }),
    contactsRateLimitPerMinute: options.contactsRateLimitPerMinute,
    engine: options.engine?.(store),
    webhookAllowPrivate: options.webhookAllowPrivate,
    sourcesAllowPrivate: options.sourcesAllowPrivate,
    trustProxy: options.trustProxy,
    metricsToken: options.metricsToken,
    publicUrl: options.publicUrl,
    consoleSessionIdleHours: options.consoleSessionIdleHours,
    sourceLimits: options.sourceLimits,
    stopping: options.stopping,
  });
  const server = createServer(app.callback());
  answerParserRefusals(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    baseUrl: origin + API_PREFIX,
    origin,
    apiKey,
    accountId: account.id,
    store,
    openConnections() {
      return new Promise((resolve, reject) => {
        server.getConnections((error, count) => (error ? reject(error) : resolve(count)));
      });
    },
    async addAccount(name, quota = DEFAULT_QUOTA) {
      const created = await createAccount(store, name, quota);
      return { apiKey: created.apiKey, accountId: created.account.id };
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await store.close();
    },
  };
}

export const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });

/** A JSON request with the key; `body` is serialised unless it is already a string. */
export function jsonRequest(
  method: string,
  url: string,
  apiKey: string | undefined,
  body?: unknown,
): Promise<Response> {
  const headers: Record<string, string> = apiKey === undefined ? {} : bearer(apiKey);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Status and parsed JSON body of a response. */
export async function readJson(response: Response): Promise<{ status: number; body: unknown }> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body };
}

/** Sends a request and answers its status and parsed JSON body. */
export async function call(
  method: string,
  url: string,
  apiKey: string | undefined,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return readJson(await jsonRequest(method, url, apiKey, body));
}

/** Creates a chatbot through the API and answers its id. */
export async function createChatbotViaApi(
  app: Pick<TestApp, 'baseUrl' | 'apiKey'>,
  chatbotName = 'Support bot',
  sourceText = 'Our shop opens at nine.\n\nReturns are accepted within 30 days.',
  apiKey = app.apiKey,
): Promise<string> {
  const { status, body } = await call('POST', `${app.baseUrl}/create-chatbot`, apiKey, { chatbotName, sourceText });
  if (status !== 200) throw new Error(`create-chatbot answered ${status}: ${JSON.stringify(body)}`);
  return (body as { chatbotId: string }).chatbotId;
}

// The contract's failure bodies.
export const INVALID = { message: 'Invalid request data' };
export const NO_KEY = { message: 'No API key provided.' };
export const DENIED = { message: 'Access denied or quota exceeded' };
export const NOT_FOUND = { message: 'Resource not found' };
export const INTERNAL = { message: 'Internal server error' };

// Tiny images whose types file-type recognises from the bytes.
export const IMAGES = {
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  jpeg: Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
    0x00, 0x00, 0xff, 0xd9,
  ]),
  gif: Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    Buffer.from([
      0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0x2c, 0x00, 0x00, 0x00, 0x00,
      0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
    ]),
  ]),
  webp: Buffer.concat([
    Buffer.from('RIFF', 'latin1'),
    Buffer.from([0x1a, 0x00, 0x00, 0x00]),
    Buffer.from('WEBPVP8 ', 'latin1'),
    Buffer.alloc(18),
  ]),
} as const;

/** A multipart form with a chatbotId part (unless undefined) and a file part (unless undefined). */
export function imageForm(
  chatbotId: string | undefined,
  filePart: string,
  file: { bytes: Uint8Array; name: string; type: string } | undefined,
): FormData {
  const form = new FormData();
  if (chatbotId !== undefined) form.append('chatbotId', chatbotId);
  if (file) form.append(filePart, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return form;
}
