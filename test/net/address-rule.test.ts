import { describe, expect, it } from 'vitest';
import { refusedUrl } from '../../src/net/address-rule.js';

// The refusal is shown to owners (a website source's error, a webhook delivery's), so it names the
// range in words: ipaddr.js's identifiers read "169.254.169.254 is a linkLocal address".

describe('refusedUrl', () => {
  it.each([
    ['http://127.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://10.0.0.1/', '10.0.0.1 is a private address'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    ['http://0.0.0.0:8080/', '0.0.0.0 is an unspecified address'],
    ['http://100.64.0.1/', '100.64.0.1 is a carrier-grade NAT address'],
    ['http://[fd00:ec2::254]/', 'fd00:ec2::254 is a unique local address'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is a loopback address'],
    ['http://metadata.google.internal/', 'metadata.google.internal is a cloud metadata service'],
  ])('refuses %s saying why in words', (url, reason) => {
    expect(refusedUrl(new URL(url), false)).toBe(reason);
    expect(refusedUrl(new URL(url), true)).toBeUndefined();
  });

  it('lets a public address pass', () => {
    expect(refusedUrl(new URL('https://93.184.216.34/hook'), false)).toBeUndefined();
  });
});
