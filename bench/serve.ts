import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { loadConfig } from '../src/config.js';
import { startHub } from '../src/hub.js';
import { createLogger } from '../src/logger.js';

// A server in its own process, for the load generator in the parent: `hub` is Switchboard as
// `npm start` wires it (JSON logs at info, metrics, timed store; configured by the environment),
// `koa` and `node` the bare baselines answering {"status":"ok"}. Tells the parent its port.

const kind = process.argv[2];
let server: Server;
let close = async () => {};

if (kind === 'node') {
  server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify({ status: 'ok' }));
  });
} else if (kind === 'koa') {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = { status: 'ok' };
  });
  server = createServer(app.callback());
} else if (kind === 'hub') {
  const config = loadConfig({ ...process.env, PORT: '0' });
  const hub = await startHub(config, createLogger(config.logLevel));
  server = hub.server;
  close = hub.close;
} else {
  throw new Error(`serve.ts: unknown server kind ${kind}`);
}

if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
process.send?.({ port: (server.address() as AddressInfo).port });
process.once('SIGTERM', () => {
  if (!server.listening) process.exit(0);
  server.closeAllConnections();
  void close().finally(() => process.exit(0));
});
