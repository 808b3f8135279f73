import { pino, type Logger } from 'pino';

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

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: SECRET_PATHS, censor: '[redacted]' } });
}
