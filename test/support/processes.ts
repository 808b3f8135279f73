import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Runs Switchboard's own entry points as the npm scripts do: node with tsx's loader, in one
// process, so signals reach the hub itself; or `npm start` itself, whose signals npm passes on.

const NODE_ARGS = ['--import', 'tsx'];

export function tempDatabaseUrl(): string {
  return `sqlite:${join(mkdtempSync(join(tmpdir(), 'switchboard-')), 'switchboard.db')}`;
}

export type Started = { child: ChildProcess; apiUrl: string; output: () => string };

/** Starts `src/main.ts` (or `npm start`, `viaNpm`) on a free port and resolves once it is listening. */
export function startMain(env: Record<string, string>, { viaNpm = false } = {}): Promise<Started> {
  const [command, args] = viaNpm ? ['npm', ['start']] : [process.execPath, [...NODE_ARGS, 'src/main.ts']];
  const child = spawn(command, args, {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /"url":"(http:\/\/localhost:\d+\/api\/v1)"/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        // Give the one-time key banner, written just after the log line, a moment to arrive.
        setTimeout(() => resolve({ child, apiUrl: url, output: () => output }), 100);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening:\n${output}`)));
  });
}

export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

/** Runs `src/cli/admin.ts` to completion. */
export function runAdmin(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...NODE_ARGS, 'src/cli/admin.ts', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
