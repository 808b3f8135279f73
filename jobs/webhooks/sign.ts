import { createHmac } from 'node:crypto';

/** `sha256=` and the hex HMAC-SHA256 of `{timestamp}.{body}` keyed with the webhook's secret. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The headers of one attempt: the event id, the time in Unix seconds, and the signature of both. */
export function signedHeaders(secret: string, eventId: string, body: string, at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'Switchboard-Webhooks/1',
    'X-Switchboard-Event-Id': eventId,
    'X-Switchboard-Timestamp': String(timestamp),
    'X-Switchboard-Signature': signature(secret, timestamp, body),
  };
}
