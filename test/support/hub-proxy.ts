import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A switch between an adapter and the hub, for tests of the adapters' outages.

/** The hub behind a switch: while down, every connection is cut (an outage as the adapter sees it). */
export async function startHubProxy(target: string) {
  let down = false;
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    if (down) {
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const name of ['authorization', 'content-type']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const upstream = await fetch(target + (request.url ?? '/'), {
      method: request.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const passed = ['X-Message-Id', 'X-Message-Kind'].flatMap((name) => {
      const value = upstream.headers.get(name);
      return value ? [[name, value]] : [];
    });
    response.writeHead(upstream.status, {
      'Content-Type': upstream.headers.get('content-type') ?? 'text/plain',
      ...Object.fromEntries(passed),
    });
    for await (const chunk of upstream.body ?? []) response.write(chunk);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setDown: (value: boolean) => {
      down = value;
      if (value) server.closeAllConnections();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
