import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { loadConfig } from '../src/config.js';
import { startHub } from '../src/hub.js';
import { createLogger } from '../src/logger.js';
import { putHelperThreadsBelowEventLoop } from '../src/worker-thread.js';

// A server in its own process, for the load generator in the parent: `hub` is Switchboard as
// `npm start` wires it (JSON logs at info, metrics, timed store; configured by the environment),
// `koa` and `node` the bare baselines answering {"status":"ok"}, or the JSON in BENCH_JSON (so a
// hub route is compared with bare Koa serializing the same answer). Tells the parent its port.

// Every server process starts as `npm start` does (src/main.ts), its helper threads below the event loop.
putHelperThreadsBelowEventLoop();

const kind = process.argv[2];
const answer: unknown = JSON.parse(process.env.BENCH_JSON ?? '{"status":"ok"}');
let server: Server;
let close = async () => {};

if (kind === 'node') {
  server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(answer));
  });
} else if (kind === 'koa') {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = answer;
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
