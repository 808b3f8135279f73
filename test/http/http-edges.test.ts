import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChatbot } from '../../src/domain/chatbots.js';
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

/**
 * Sends `head`, then `piece` over and over as fast as the hub reads it, up to `bodyBytes`; like
 * curl, it stops sending once an answer arrives, then half-closes. Resolves with what it received
 * and the socket error, if any, once the connection is closed.
 */
function sendUntilAnswered(
  app: TestApp,
  head: Buffer,
  piece: Buffer,
  bodyBytes: number,
): Promise<{ response: string; error?: string }> {
  const { hostname, port } = new URL(app.origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let sent = 0;
    const pump = () => {
      while (chunks.length === 0 && sent < bodyBytes && socket.writable) {
        sent += piece.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      socket.end();
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (failure: NodeJS.ErrnoException) => (error ??= failure.code));
    socket.on('close', () => resolve({ response: Buffer.concat(chunks).toString('latin1'), error }));
    socket.write(head);
    pump();
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
      'answers a broken %s body of 600 KB with 400, closes cleanly and skips the request behind it',
      async (encoding) => {
        // Valid gzip header, then garbage: the decoder fails part-way, leaving most bytes unread.
        const broken = Buffer.concat([gzipSync('{"a":').subarray(0, 10), Buffer.alloc(600 * 1024, 0xff)]);
        const head =
          `POST /api/v1/create-chatbot HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Encoding: ${encoding}\r\nContent-Length: ${broken.length}\r\n\r\n`;
        // Made without HTTP, so that the only connection left open is the one under test.
        const { id: chatbotId } = await createChatbot(app.store, (await app.store.accounts.findById(app.accountId))!, {
          name: 'Kept',
        });
        const next =
          `DELETE /api/v1/delete-chatbot?chatbotId=${chatbotId} HTTP/1.1\r\nHost: x\r\n` +
          `Authorization: Bearer ${app.apiKey}\r\n\r\n`;
        const response = await exchange(app, Buffer.concat([Buffer.from(head), broken]), next);
        expect(statusOf(response)).toBe(400);
        expect(response).toMatch(/\r\nConnection: close\r\n/i);
        // Exactly one answer, whole, and no reset: the client knows to reconnect for the next.
        expect(response.match(/^HTTP\/1\.1 /gm)).toHaveLength(1);
        expect(bodyOf(response)).toEqual(INVALID);
        // The request behind it is read while the refused body is discarded, but not processed.
        await vi.waitFor(async () => expect(await app.openConnections()).toBe(0), { timeout: 10_000 });
        expect((await app.store.chatbots.list(app.accountId)).map((chatbot) => chatbot.id)).toEqual([chatbotId]);
      },
    );
  });

  describe('a body refused part-way while the client is still sending', () => {
    // Closing at once reset such a connection, and in about one run in three the client lost the
    // answer too; a race, so each case runs many rounds and every one must get its answer.
    const ROUNDS = 20;
    const MB = 1024 * 1024;
    const asChunk = (bytes: Buffer) =>
      Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
    const filePart = Buffer.from(
      '--xyz\r\nContent-Disposition: form-data; name="chatbotIconFile"; filename="big.png"\r\n' +
        'Content-Type: image/png\r\n\r\n',
    );
    const piece = Buffer.alloc(256 * 1024, 0x20);
    const json = { path: 'create-chatbot', type: 'application/json', preamble: Buffer.from('{"name": "') };
    const upload = { path: 'upload-chatbot-icon', type: 'multipart/form-data; boundary=xyz', preamble: filePart };

    it.each([
      // Over the 16 MB JSON limit: read until the limit trips.
      ['a chunked JSON body of 50 MB', json, 'chunked', 50 * MB],
      // Refused from its Content-Length alone, before a byte of it is read.
      ['a JSON body declaring 50 MB', json, 'length', 50 * MB],
      // Over the 5 MB file limit: read until the limit trips.
      ['a chunked upload of 20 MB', upload, 'chunked', 20 * MB],
      ['an upload declaring 20 MB', upload, 'length', 20 * MB],
      // Refused by Node's HTTP parser (parser-refusals.ts) rather than the body parser.
      ['a chunked body whose first chunk size is not hex', json, 'malformed', 20 * MB],
    ] as const)('answers %s with 400 and Connection: close, every time', async (_case, route, framing, bodyBytes) => {
      const head = (framingHeader: string) =>
        `POST /api/v1/${route.path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.apiKey}\r\n` +
        `Content-Type: ${route.type}\r\n${framingHeader}\r\n\r\n`;
      const start = {
        chunked: () => Buffer.concat([Buffer.from(head('Transfer-Encoding: chunked')), asChunk(route.preamble)]),
        length: () =>
          Buffer.concat([Buffer.from(head(`Content-Length: ${route.preamble.length + bodyBytes}`)), route.preamble]),
        malformed: () => Buffer.from(`${head('Transfer-Encoding: chunked')}zz\r\n`),
      }[framing]();
      const body = framing === 'length' ? piece : asChunk(piece);
      for (let round = 0; round < ROUNDS; round++) {
        const { response, error } = await sendUntilAnswered(app, start, body, bodyBytes);
        expect({ round, error, status: statusOf(response) }).toEqual({ round, error: undefined, status: 400 });
        expect(response).toMatch(/\r\nConnection: close\r\n/i);
        expect(bodyOf(response)).toEqual(INVALID);
      }
      expect(await app.store.chatbots.list(app.accountId)).toEqual([]);
    });
  });
});
