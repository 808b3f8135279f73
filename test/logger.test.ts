import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// JSON lines leave in batches: what a process logs must still all arrive, whole, when it exits
// right after logging, and a quiet process's last line must not wait for the batch to fill.
const ROOT = new URL('..', import.meta.url);
const SCRIPT = `
  import { createLogger } from './src/logger.ts';
  const logger = createLogger('info', { pretty: false });
  for (let i = 0; i < 500; i += 1) logger.info({ i, name: 'héllo ✓ 日本' }, 'line');
  logger.fatal('last words');
  process.exit(3);
`;

describe('createLogger, JSON to stdout', () => {
  it('writes every line, whole and in order, even when the process exits at once', async () => {
    const outcome = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
    }).catch((error: { code: number; stdout: string }) => error);
    expect(outcome).toMatchObject({ code: 3 });
    const lines = outcome.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(501);
    expect(lines.slice(0, 500).map((line) => line.i)).toEqual([...Array(500).keys()]);
    expect(lines.every((line, i) => i === 500 || line.name === 'héllo ✓ 日本')).toBe(true);
    expect(lines[500]).toMatchObject({ level: 60, msg: 'last words' });
  });

  it('writes a lone line while the process lives on', async () => {
    const quiet = `
      import { createLogger } from './src/logger.ts';
      createLogger('info', { pretty: false }).info('alone');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', quiet], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      // Long past the periodic flush: a line held until the batch fills would never come.
      const [chunk] = (await once(child.stdout, 'data', { signal: AbortSignal.timeout(10_000) })) as [Buffer];
      expect(JSON.parse(chunk.toString())).toMatchObject({ level: 30, msg: 'alone' });
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill();
    }
  }, 15_000);
});
