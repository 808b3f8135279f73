import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A website on 127.0.0.1 for crawl tests and the bench: each route a function of the request,
// looked up by path and query, then by path (else 404). It counts the requests of each path and
// the most it had in flight at once.

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

export type Site = {
  origin: string;
  port: number;
  /** Requests so far, by path (with query). */
  hits: Map<string, number>;
  /** The most requests in flight at once so far. */
  busiest(): number;
  close(): Promise<void>;
};

/** Serves the routes, given as they are or made from the site's address (for absolute links). */
export async function serveSite(
  routesOf: Record<string, Route> | ((site: { origin: string; port: number }) => Record<string, Route>),
): Promise<Site> {
  let routes: Record<string, Route> = {};
  const hits = new Map<string, number>();
  let inFlight = 0;
  let busiest = 0;
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    inFlight += 1;
    busiest = Math.max(busiest, inFlight);
    response.on('close', () => (inFlight -= 1));
    const route = routes[path] ?? routes[new URL(path, 'http://site').pathname];
    if (route) route(request, response);
    else response.writeHead(404, { 'Content-Type': 'text/html' }).end('<title>Not here</title>');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  routes = typeof routesOf === 'function' ? routesOf({ origin, port }) : routesOf;
  return {
    origin,
    port,
    hits,
    busiest: () => busiest,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** An HTML page: a title, links and body content around a nav and a footer, as sites have. */
export function page(title: string, content: string, { links = [] as string[], head = '' } = {}): string {
  const nav = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html><head><title>${title}</title>${head}</head><body>
<nav><ul>${nav}</ul></nav>
<header><p>Site header: Acme Handbook</p></header>
<main><article><h1>${title}</h1>${content}</article></main>
<footer><p>Site footer: © Acme</p></footer>
<script>window.tracking = 'script text';</script>
</body></html>`;
}

export const redirect =
  (location: string, status = 302): Route =>
  (_request, response) =>
    response.writeHead(status, { Location: location }).end();

export const text =
  (body: string | Buffer, contentType = 'text/plain'): Route =>
  (_request, response) =>
    response.writeHead(200, { 'Content-Type': contentType }).end(body);

export const html = (body: string): Route => text(body, 'text/html; charset=utf-8');
