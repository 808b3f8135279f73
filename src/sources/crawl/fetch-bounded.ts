import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import iconv from 'iconv-lite';
import { AddressRefused, checkedLookup } from '../../net/checked-lookup.js';
import { refusedUrl } from '../../net/address-rule.js';
import { decodeText } from '../extract/sniff.js';
import { normaliseUrl } from './normalise.js';

// The crawl's GET: one page, robots.txt or sitemap, each within a size bound and a time bound,
// following redirects only where the caller allows. Unless private addresses are allowed, a URL
// naming a refused address is refused before any request, and every connection goes through the
// address rule's checked lookup (the address connected to is the one checked). A crawl keeps its
// own keep-alive agents, so its sockets are all checked ones and at most `concurrency` are open.

export type ClientOptions = {
  userAgent: string;
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  /** At most this many requests at once (sockets per scheme). */
  concurrency: number;
  /** Ends every request in flight; they then reject with its reason. */
  signal: AbortSignal;
};

/** Why a resource was not read: a sentence, and whether it failed or was passed over. */
export type Unread = { outcome: 'failed' | 'skipped'; reason: string };

export type GetRules = {
  /** Whether a body of this content type is wanted (anything when absent). */
  accepts?(contentType: string): boolean;
  /** How the request ends unread rather than follow a redirect to this URL, or undefined when it may. */
  refusedHop?(url: URL): Promise<Unread | undefined>;
};

/** A body read whole, or why not. */
export type Fetched = { ok: true; url: string; contentType: string; body: Buffer } | ({ ok: false; httpStatus?: number } & Unread);

export const REDIRECT_LOOP = 'It redirects in a loop.';

export type Client = {
  get(url: URL, rules?: GetRules): Promise<Fetched>;
  close(): void;
};

const MAX_REDIRECTS = 10;

export function openClient(options: ClientOptions): Client {
  const agentOptions = { keepAlive: true, maxSockets: options.concurrency };
  const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };
  const headers = {
    'User-Agent': options.userAgent,
    Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.5',
    'Accept-Encoding': 'gzip, br',
  };

  function send(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
    const https = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const request = (https ? httpsRequest : httpRequest)(
        url,
        {
          headers,
          agent: https ? agents.https : agents.http,
          ...(options.allowPrivate ? {} : { lookup: checkedLookup }),
          signal,
        },
        resolve,
      );
      request.on('error', reject);
      request.end();
    });
  }

  async function get(start: URL, rules: GetRules = {}): Promise<Fetched> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = AbortSignal.any([options.signal, timeout]);
    const visited = new Set<string>();
    let url = start;
    try {
      for (let redirects = 0; ; redirects += 1) {
        const refused = refusedUrl(url, options.allowPrivate);
        if (refused) return failed(`Its address is refused: ${refused}.`);
        visited.add(url.href);
        const response = await send(url, signal);
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          const next = normaliseUrl(location, url.href);
          if (!next) return failed('It redirects to an address that is not http or https.');
          if (visited.has(next)) return failed(REDIRECT_LOOP);
          if (redirects === MAX_REDIRECTS) return failed(`It redirects more than ${MAX_REDIRECTS} times.`);
          url = new URL(next);
          const hopRefused = await rules.refusedHop?.(url);
          if (hopRefused) return { ok: false, ...hopRefused };
          continue;
        }
        if (status < 200 || status >= 300) {
          response.resume();
          const reason = `The server answered ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}.`;
          return { ...failed(reason), httpStatus: status };
        }
        const contentType = response.headers['content-type'] ?? '';
        if (rules.accepts && !rules.accepts(contentType)) {
          response.destroy();
          return { ok: false, outcome: 'skipped', reason: `It is not HTML (${contentType.split(';')[0]?.trim() || 'no content type'}).` };
        }
        const body = await readBounded(response, options.maxBytes);
        if (!body) return failed(`It is larger than ${sizeText(options.maxBytes)}.`);
        return { ok: true, url: url.href, contentType, body };
      }
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason;
      if (timeout.aborted) return failed(`It did not answer within ${secondsText(options.timeoutMs)}.`);
      if (error instanceof AddressRefused) return failed(`Its address is refused: ${error.message}.`);
      const code = (error as NodeJS.ErrnoException).code;
      return failed(`It could not be reached (${code ?? (error as Error).message}).`);
    }
  }

  return {
    get,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

const failed = (reason: string) => ({ ok: false, outcome: 'failed', reason }) as const;

/** The decoded body, or undefined as soon as it passes maxBytes (the rest is never read). */
async function readBounded(response: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  // Compressed bodies only grow when decoded.
  if (Number(response.headers['content-length']) > maxBytes) {
    response.destroy();
    return undefined;
  }
  const decoded = decode(response);
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of decoded) {
    bytes += (chunk as Buffer).length;
    if (bytes > maxBytes) {
      decoded.destroy();
      response.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The encodings asked for (deflate is not: servers disagree on what it means). */
const DECODERS = new Map<string, () => Transform>([
  ['gzip', createGunzip],
  ['x-gzip', createGunzip],
  ['br', createBrotliDecompress],
]);

/** The body without its content encoding (an error of either stream ends the iteration). */
function decode(response: IncomingMessage): Readable {
  const decoder = DECODERS.get(response.headers['content-encoding']?.trim().toLowerCase() ?? '');
  return decoder ? pipeline(response, decoder(), () => {}) : response;
}

/**
 * The body as text: in the charset its content type names, else as extraction judges a file
 * (a byte-order mark, UTF-8, the charset an HTML page declares, else Windows-1252).
 */
export function textOf({ contentType, body }: { contentType: string; body: Uint8Array }): string {
  const charset = /charset=["']?([\w.:-]+)/i.exec(contentType)?.[1];
  if (charset && iconv.encodingExists(charset)) return iconv.decode(Buffer.from(body.buffer, body.byteOffset, body.byteLength), charset);
  return decodeText(body) ?? new TextDecoder().decode(body);
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MB` : `${+(bytes / 1024).toFixed(1)} KB`;

const secondsText = (ms: number) => (ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${ms} ms`);
