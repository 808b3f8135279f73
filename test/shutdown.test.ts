import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { drainer } from '../src/shutdown.js';

// Stopping a server: connections that never sent a byte (a browser's spare ones) are closed at
// once; a request in flight is answered first. The drain's deadline is kept from firing (fake
// timers), so only what the drain itself does can let it finish.

describe('drainer', () => {
  let server: Server;
  afterEach(() => {
    vi.useRealTimers();
    server.closeAllConnections();
  });

  async function listening() {
    let release: (() => void) | undefined;
    server = createServer((_req, res) => {
      release = () => void res.end('done');
    });
    const drain = drainer(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const open = async () => {
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      return socket;
    };
    return { drain, open, arrived: () => release !== undefined, answer: () => release?.() };
  }

  it('closes a connection that never sent a byte without waiting for the deadline', async () => {
    const { drain, open } = await listening();
    const spare = await open();
    await vi.waitFor(async () => expect(await new Promise((resolve) => server.getConnections((_e, n) => resolve(n)))).toBe(1));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const closed = once(spare, 'close');
    await drain();
    await closed;
    expect(spare.destroyed).toBe(true);
  });

  it('lets a request in flight finish before it closes', async () => {
    const { drain, open, arrived, answer } = await listening();
    const client = await open();
    let received = '';
    client.on('data', (chunk: Buffer) => (received += chunk.toString()));
    client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await vi.waitFor(() => expect(arrived()).toBe(true));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const drained = drain();
    await new Promise((resolve) => setImmediate(resolve));
    expect(client.destroyed).toBe(false);
    answer();
    await drained;
    await vi.waitFor(() => expect(received).toMatch(/done$/));
  });
});
