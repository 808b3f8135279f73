import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';

export type ServerKind = 'hub' | 'koa' | 'node';

export type Served = {
  origin: string;
  pid: number;
  /** Resident memory of the server process, in MB (from /proc). */
  rssMb(): Promise<number>;
  /** CPU time (user and system, all threads) the server process has used so far, in µs (from /proc). */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
};

/** `BENCH_CPU_PROF=DIR npm run bench …` writes the hub's CPU profiles (one per thread) to DIR. */
function profiling(kind: ServerKind): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir && kind === 'hub' ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/** Starts bench/serve.ts in a child process (its stdout, the hub's log, goes to /dev/null). */
export async function serve(kind: ServerKind, env: Record<string, string> = {}): Promise<Served> {
  const child = fork(new URL('./serve.ts', import.meta.url), [kind], {
    execArgv: ['--import', 'tsx', ...profiling(kind)],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  const exited = once(child, 'exit');
  const [message] = (await Promise.race([once(child, 'message'), exited.then(() => [undefined])])) as [{ port: number } | undefined];
  if (!message) throw new Error(`the ${kind} server did not start`);
  const pid = child.pid as number;
  return {
    origin: `http://127.0.0.1:${message.port}`,
    pid,
    async rssMb() {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
    },
    async cpuMicros() {
      // Fields 14 and 15 of /proc/PID/stat, after the parenthesized command name: clock ticks of 10 ms.
      const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) * 10_000;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
