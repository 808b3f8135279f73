import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

// Where webhooks may be delivered (and website sources crawled). A key holder chooses the URL and
// the hub makes the request, so without this rule a key would let anyone probe the hub's own
// network. Only public unicast addresses pass; ipaddr.js names every special range (loopback,
// RFC 1918, CGNAT, link-local with 169.254.169.254, ULA with fd00:ec2::254, unspecified,
// multicast, reserved, NAT64…), and IPv4 inside IPv6 (::ffff:10.0.0.1) is judged as the IPv4 it
// is. WEBHOOK_ALLOW_PRIVATE lifts it for webhooks, SOURCES_ALLOW_PRIVATE for crawls.

/** Whether private, loopback and link-local destinations are allowed (WEBHOOK_ALLOW_PRIVATE, SOURCES_ALLOW_PRIVATE). */
export type AddressRule = { allowPrivate: boolean };

/** Cloud metadata services reached by name; their addresses are link-local or ULA anyway. */
const METADATA_HOSTS = new Set(['metadata.google.internal']);

/**
 * A range as a sentence names it, with its article: ipaddr.js's names are identifiers
 * ("linkLocal"), which read wrong in the refusals owners see ("is a linkLocal address").
 */
const RANGE_WORDS: Record<string, string> = {
  linkLocal: 'a link-local',
  carrierGradeNat: 'a carrier-grade NAT',
  uniqueLocal: 'a unique local',
  unspecified: 'an unspecified',
  rfc6052: 'a NAT64',
  rfc6145: 'an IPv4-translated',
  teredo: 'a Teredo',
  amt: 'an AMT',
  as112: 'an AS112',
};

/** "a loopback address", "a link-local address", "an unspecified address". */
export function rangeWords(range: string): string {
  return `${RANGE_WORDS[range] ?? `a ${range}`} address`;
}

/** Why an IP address may not receive webhooks (its range's name), or undefined when it may. */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : range;
}

/** The URL's host without IPv6 brackets or a trailing dot. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();

/**
 * Why the URL may not receive webhooks, judged without DNS: its scheme, a metadata host name, or
 * an address written in it. Undefined when it may (so far).
 */
export function refusedUrl(url: URL, allowPrivate: boolean): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `scheme ${url.protocol} is not http or https`;
  if (allowPrivate) return undefined;
  const host = hostOf(url);
  if (METADATA_HOSTS.has(host)) return `${host} is a cloud metadata service`;
  if (!ipaddr.isValid(host)) return undefined;
  const range = refusedAddress(host);
  return range && `${host} is ${rangeWords(range)}`;
}

/**
 * Why the URL's host name resolves to an address that may not receive webhooks. A name that does
 * not resolve (yet) passes: delivery resolves and checks again, and connects only to what passed.
 */
async function refusedResolution(url: URL): Promise<string | undefined> {
  const host = hostOf(url);
  if (ipaddr.isValid(host)) return undefined;
  const addresses = await lookup(host, { all: true }).catch(() => []);
  for (const { address } of addresses) {
    const range = refusedAddress(address);
    if (range) return `${host} resolves to ${address}, ${rangeWords(range)}`;
  }
  return undefined;
}

/**
 * Why a key holder may not name the URL (a webhook's receiver, a website to crawl), judged when
 * it is given: the URL itself, then what its host resolves to. Requests check again on connecting.
 */
export async function refusedDestination(url: URL, rule: AddressRule): Promise<string | undefined> {
  return refusedUrl(url, rule.allowPrivate) ?? (rule.allowPrivate ? undefined : await refusedResolution(url));
}
