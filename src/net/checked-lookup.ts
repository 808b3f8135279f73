import { lookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { rangeWords, refusedAddress } from './address-rule.js';

// The address rule at connection time, for requests to URLs a key holder chose (webhooks, website
// sources). Given as a socket's `lookup`, it resolves the host, checks every address, and hands
// the socket only checked addresses: a name that changes its answer between an earlier check and
// the connection (DNS rebinding) cannot slip through.

/** A host name resolved to an address the rule refuses, or to none. */
export class AddressRefused extends Error {
  override name = 'AddressRefused';
}

export const checkedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '');
    for (const { address } of addresses) {
      const range = refusedAddress(address);
      if (range) return callback(new AddressRefused(`${hostname} resolves to ${address}, ${rangeWords(range)}`), '');
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(new AddressRefused(`${hostname} has no address`), '');
    callback(null, first.address, first.family);
  });
};
