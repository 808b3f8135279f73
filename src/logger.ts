import { pino, type DestinationStream, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';

// Paths whose values must never reach a log line, wherever a request or error object appears.
const NAMED_SECRET_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'apiKey',
  'token',
];
const SECRET_PATHS = [...NAMED_SECRET_PATHS, '*.apiKey', '*.token'];
const CENSOR = '[redacted]';
// Discord's API errors carry the URL they called (`err.url`), and an interaction's callback and
// its webhook hold the interaction's token in their path: `/interactions/ID/TOKEN/…`, `/webhooks/ID/TOKEN/…`.
const TOKEN_IN_PATH = /(\/(?:interactions|webhooks)\/\d+\/)[^/?#]+/g;

/**
 * pino's own error serializer (which passes on what is no error, null included), with a URL's path
 * tokens censored, and for what a Discord API error says the bot sent (`requestBody`: a reply, a
 * handoff notice with a person's details) only its size. Slack's errors carry what Slack answered,
 * never what was sent.
 */
function errorWithoutSecrets(error: Error): unknown {
  const serialized = pino.stdSerializers.err(error) as { url?: unknown; requestBody?: unknown } | null | undefined;
  if (serialized && typeof serialized.url === 'string') serialized.url = serialized.url.replace(TOKEN_IN_PATH, `$1${CENSOR}`);
  if (serialized?.requestBody !== undefined) serialized.requestBody = { bytes: Buffer.byteLength(JSON.stringify(serialized.requestBody)) };
  return serialized;
}

export type LogOutput = {
  /** Coloured, human-readable lines instead of JSON; by default when stdout is a terminal. */
  pretty?: boolean;
  /** Where JSON lines go; by default stdout, in batches (flushed on exit). */
  destination?: DestinationStream;
};

// JSON lines are written in batches of this many bytes, and at least this often.
const BATCH_BYTES = 4096;
const FLUSH_MS = 250;

/**
 * pino-pretty is a dependency, not a devDependency, so production installs read well at a
 * terminal too; it formats in this thread, which is fine for the volume a person watches. JSON
 * goes out in batches: a write call per request line costs light requests a large share of their
 * throughput.
 */
export function createLogger(level: string, output: LogOutput = {}): Logger {
  const options = { level, redact: { paths: SECRET_PATHS, censor: CENSOR }, serializers: { err: errorWithoutSecrets } };
  if (output.pretty ?? Boolean(process.stdout.isTTY)) {
    return pino(options, PinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true }));
  }
  return pino(options, output.destination ?? batchedStdout());
}

/**
 * A batch is written from this thread: handing each to libuv's thread pool cost light requests
 * 3–5% of their CPU time, and a log reader that falls behind slows the hub down rather than
 * filling its memory. sonic-boom gets bytes: given a string, it measures the byte length of its
 * whole pending batch on every write. pino flushes only asynchronous destinations on exit, so
 * this one flushes itself.
 */
function batchedStdout(): DestinationStream {
  const stdout = pino.destination({ sync: true, minLength: BATCH_BYTES, periodicFlush: FLUSH_MS, contentMode: 'buffer' });
  process.once('exit', () => stdout.flushSync());
  // Its types know only its string mode.
  const writeBytes = stdout.write.bind(stdout) as unknown as (bytes: Buffer) => boolean;
  return { write: (line: string) => writeBytes(Buffer.from(line)) };
}

/**
 * For lines of fixed, flat fields (the request line): the same redaction without the wildcard
 * paths, which make pino pass every value of every line through the redactor.
 */
export function flatLineLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: NAMED_SECRET_PATHS, censor: CENSOR } });
}
