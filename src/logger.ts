import { pino, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';

// Paths whose values must never reach a log line, wherever a request or error object appears.
const SECRET_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'apiKey',
  '*.apiKey',
  'token',
  '*.token',
];

/**
 * JSON lines, or coloured human-readable lines when `pretty` (by default: stdout is a terminal).
 * pino-pretty is a dependency, not a devDependency, so production installs read well at a
 * terminal too; it formats in this thread, which is fine for the volume a person watches.
 */
export function createLogger(level: string, pretty = Boolean(process.stdout.isTTY)): Logger {
  const options = { level, redact: { paths: SECRET_PATHS, censor: '[redacted]' } };
  return pretty ? pino(options, PinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l' })) : pino(options);
}
