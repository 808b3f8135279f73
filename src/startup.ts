import { ConfigError } from './config.js';
import { HubError } from './domain/errors.js';

// How a process of Switchboard (web, slack, discord, clock) fails to start on what its operator
// controls: a setting, the database, the port. One plain sentence on stderr and exit code 1, not
// an uncaught exception's source excerpt and stack (for an unreachable MongoDB, sixty lines of the
// driver's topology). A failure of anything else is a fault, and keeps its stack.

/** Runs a step of a process's start, and exits 1 saying why if it fails. */
export async function startOrExit<T>(what: string, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    process.stderr.write(`${what} could not start: ${startFailure(error)}\n`);
    return process.exit(1);
  }
}

/** What went wrong, in the operator's terms. */
export function startFailure(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  // A use case run at start refused what a setting asks (BOOTSTRAP_API_KEY held by another account).
  if (error instanceof HubError) return `${error.message}.`;
  const { name, message, code, syscall } = error as { name?: string; message?: string; code?: string; syscall?: string };
  // Mongoose's and the driver's: no server of the deployment answered within the selection timeout.
  if (name?.endsWith('ServerSelectionError')) return `the MongoDB database DATABASE_URL names cannot be reached (${message}).`;
  if (name === 'SqliteError') return `the SQLite database DATABASE_URL names cannot be opened (${message}).`;
  if (code === 'EADDRINUSE') return `${message}: another process listens on PORT.`;
  // A system call refused: a SQLite file's directory that cannot be made, a port not allowed.
  if (syscall) return `${message}.`;
  return (error as Error).stack ?? String(error);
}
