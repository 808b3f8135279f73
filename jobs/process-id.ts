import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** Names a process in the leases and claims of the jobs: host, pid, and a few random bytes for a restart. */
export const newProcessId = () => `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
