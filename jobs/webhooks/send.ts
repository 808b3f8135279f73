import { lookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { refusedAddress, refusedUrl } from '../../src/domain/webhook-address.js';

// One POST to a receiver. Unless private receivers are allowed, the host is resolved here, every
// address is checked, and the socket connects to the checked addresses themselves: a name that
// changes its answer between a check and the connection (DNS rebinding) cannot slip through.

export type SendOptions = { allowPrivate: boolean; timeoutMs: number };

/** The receiver could not be reached, or not within the time, or not at an allowed address. */
export class SendFailure extends Error {
  override name = 'SendFailure';
}

const checkedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '');
    const refused = addresses.find(({ address }) => refusedAddress(address));
    if (refused) {
      const range = refusedAddress(refused.address);
      return callback(new SendFailure(`${hostname} resolves to ${refused.address}, a ${range} address`), '');
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(new SendFailure(`${hostname} has no address`), '');
    callback(null, first.address, first.family);
  });
};

/** POSTs the body and answers the receiver's status code (the response body is not read). */
export function post(url: URL, headers: Record<string, string>, body: string, options: SendOptions): Promise<number> {
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
    req.end(body);
  });
}
