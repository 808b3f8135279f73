import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { FAILURES } from './failures.js';
import { endThenLinger } from './lingering-close.js';

const STATUS_BY_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * Requests Node's HTTP parser refuses (oversized headers, a malformed request line, an unknown
 * method, broken chunk framing) never reach Koa; answer them with the contract's body too, then
 * close, since the rest of the stream cannot be trusted: in stages, so that a client still
 * sending gets the answer rather than a reset.
 */
export function answerParserRefusals(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    // Already answered, or closed once answered (lingering-close.ts): the parser refuses each
    // later byte too, which discards it until the connection closes.
    if (!socket.writable) return;
    const status = STATUS_BY_CODE[error.code ?? ''] ?? FAILURES.invalid.status;
    const body = JSON.stringify({ message: FAILURES.invalid.message });
    endThenLinger(
      socket,
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}
