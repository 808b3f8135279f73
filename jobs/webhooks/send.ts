import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkedLookup } from '../../src/net/checked-lookup.js';
import { refusedUrl } from '../../src/net/address-rule.js';

// One POST to a receiver. Unless private receivers are allowed, the socket connects only to
// addresses the address rule has checked (checked-lookup.ts), whatever the name answers later.

export type SendOptions = {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Asked once the connection is open, before anything is written: false withdraws the request unsent. */
  stillWanted: () => Promise<boolean>;
};

/** What post answers for a request withdrawn before it was written. */
export const WITHDRAWN = 'withdrawn';

/** The receiver could not be reached, or not within the time, or not at an allowed address. */
export class SendFailure extends Error {
  override name = 'SendFailure';
}

/**
 * POSTs the body and answers the receiver's status code (the response body is not read), or
 * WITHDRAWN when, the connection open, the request was no longer wanted.
 */
export function post(url: URL, headers: Record<string, string>, body: string, options: SendOptions): Promise<number | typeof WITHDRAWN> {
  const refused = refusedUrl(url, options.allowPrivate);
  if (refused) return Promise.reject(new SendFailure(`url refused: ${refused}`));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        // A fresh connection per attempt: a pooled socket would skip the address check.
        agent: false,
        ...(options.allowPrivate ? {} : { lookup: checkedLookup }),
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', (error) => {
      if (error.name === 'AbortError') reject(new SendFailure(`no answer within ${options.timeoutMs} ms`));
      else reject(error);
    });
    // Nothing is written (headers neither) until the connection is open, TLS included, so what
    // changed meanwhile (a person erased) still withdraws it. The socket comes on the next tick,
    // before it can have connected.
    req.once('socket', (socket) => {
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        options.stillWanted().then(
          (wanted) => {
            if (wanted) return void req.end(body);
            resolve(WITHDRAWN);
            req.destroy();
          },
          (error: unknown) => req.destroy(error instanceof Error ? error : new Error(String(error))),
        );
      });
    });
  });
}
