import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// A webhook receiver on 127.0.0.1: records every request and answers as told, one answer per
// request in order (then 200s). `hang` never answers, as a stuck receiver does.

export type Answer = number | 'hang';

export type Received = { headers: IncomingHttpHeaders; body: string; answered: Answer };

export type Receiver = {
  url: string;
  port: number;
  received: Received[];
  /** Answers for the next requests, in order. */
  answer(...answers: Answer[]): void;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const queue: Answer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answered = queue.shift() ?? 200;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      if (answered !== 'hang') res.writeHead(answered, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/switchboard`,
    port,
    received,
    answer: (...answers) => queue.push(...answers),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** What a receiver does, written as the README shows: HMAC of `{timestamp}.{raw body}`, compared in constant time. */
export function verifies(secret: string, request: Received): boolean {
  const timestamp = request.headers['x-switchboard-timestamp'];
  const given = request.headers['x-switchboard-signature'];
  if (typeof timestamp !== 'string' || typeof given !== 'string') return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}
