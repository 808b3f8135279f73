import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { post, WITHDRAWN } from '../../jobs/webhooks/send.js';

// One POST to a receiver, asked once more whether it is still wanted when the connection is open:
// a request withdrawn then writes nothing, not even its headers.

/** A connection the receiver accepted, with every byte it received. */
type Connection = { socket: Socket; received: Buffer[] };

describe('webhook send', () => {
  let server: ReturnType<typeof createServer>;
  let url: URL;
  const connections: Connection[] = [];

  beforeEach(async () => {
    connections.length = 0;
    server = createServer((socket) => {
      const connection: Connection = { socket, received: [] };
      connections.push(connection);
      socket.on('data', (chunk: Buffer) => {
        connection.received.push(chunk);
        if (Buffer.concat(connection.received).includes('\r\n\r\n{}')) socket.end('HTTP/1.1 204 No Content\r\n\r\n');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
  });
  afterEach(async () => {
    server.close();
    await once(server, 'close');
  });

  /** Answers once the receiver holds the connection, as a check made then would see it. */
  const receiverConnected = async (): Promise<Connection> => {
    for (;;) {
      const [connection] = connections;
      if (connection) return connection;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it('writes nothing to a receiver it is connected to when the request is no longer wanted, and says it withdrew it', async () => {
    const stillWanted = async () => {
      await receiverConnected();
      return false;
    };

    expect(await post(url, { 'Content-Type': 'application/json' }, '{}', { allowPrivate: true, timeoutMs: 5_000, stillWanted })).toBe(WITHDRAWN);

    const connection = await receiverConnected();
    if (!connection.socket.closed) await once(connection.socket, 'close');
    expect(connections).toHaveLength(1);
    expect(Buffer.concat(connection.received).length).toBe(0);
  });

  it('sends the request once the connection is open and it is still wanted', async () => {
    const stillWanted = async () => {
      await receiverConnected();
      return true;
    };

    expect(await post(url, { 'Content-Type': 'application/json' }, '{}', { allowPrivate: true, timeoutMs: 5_000, stillWanted })).toBe(204);

    expect(Buffer.concat(connections[0]?.received ?? []).toString()).toMatch(/^POST \/hook HTTP\/1\.1\r\n[\s\S]*\r\n\r\n\{\}$/);
  });
});
