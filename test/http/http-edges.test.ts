import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INVALID, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

/** Writes raw bytes to the app and collects everything it answers until it closes the connection. */
function exchange(app: TestApp, ...requests: (string | Buffer)[]): Promise<string> {
  const { hostname, port } = new URL(app.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    for (const request of requests) socket.write(request);
  });
}

const statusOf = (response: string) => Number(response.slice(9, 12));
const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as unknown;

describe.each(storeTargets.filter((t) => t.available))('$name store', (target) => {
  let app: TestApp;

  beforeEach(async () => {
    app = await startApp(target);
  });
  afterEach(async () => {
    await app.close();
  });

  describe("requests Node's parser refuses", () => {
    it.each([
      ['headers over 16 KB', `GET /api/v1/get-chatbots HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`, 431],
      ['a malformed request line', 'GARBAGE\r\n\r\n', 400],
      ['an unknown method', 'BREW /api/v1/get-chatbots HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ])('answers %s with the contract body and closes', async (_case, request, status) => {
      const response = await exchange(app, request);
      expect(statusOf(response)).toBe(status);
      expect(response).toMatch(/\r\nContent-Type: application\/json/i);
      expect(response).toMatch(/\r\nConnection: close\r\n/i);
      expect(bodyOf(response)).toEqual(INVALID);
    });
  });

  describe('a refused compressed body', () => {
    it.each(['gzip', 'deflate', 'br'])(
      'answers a broken %s body of 600 KB with 400 and closes the connection cleanly',
      async (encoding) => {
        // Valid gzip header, then garbage: the decoder fails part-way, leaving most bytes unread.
        const broken = Buffer.concat([gzipSync('{"a":').subarray(0, 10), Buffer.alloc(600 * 1024, 0xff)]);
        const head =
          `POST /api/v1/create-chatbot HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Encoding: ${encoding}\r\nContent-Length: ${broken.length}\r\n\r\n`;
        const next = `GET /api/v1/get-chatbots HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.apiKey}\r\n\r\n`;
        const response = await exchange(app, Buffer.concat([Buffer.from(head), broken]), next);
        expect(statusOf(response)).toBe(400);
        expect(response).toMatch(/\r\nConnection: close\r\n/i);
        // Exactly one answer, whole, and no reset: the client knows to reconnect for the next.
        expect(response.match(/^HTTP\/1\.1 /gm)).toHaveLength(1);
        expect(bodyOf(response)).toEqual(INVALID);
        expect(await app.store.chatbots.list(app.accountId)).toEqual([]);
      },
    );
  });
});
