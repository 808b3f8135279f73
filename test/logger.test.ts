import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

// JSON lines leave in batches, asynchronously: what a process logs must still all arrive, whole,
// when it exits right after logging.
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
      cwd: new URL('..', import.meta.url),
      env: { ...process.env, NODE_ENV: 'production' },
    }).catch((error: { code: number; stdout: string }) => error);
    expect(outcome).toMatchObject({ code: 3 });
    const lines = outcome.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(501);
    expect(lines.slice(0, 500).map((line) => line.i)).toEqual([...Array(500).keys()]);
    expect(lines.every((line, i) => i === 500 || line.name === 'héllo ✓ 日本')).toBe(true);
    expect(lines[500]).toMatchObject({ level: 60, msg: 'last words' });
  });
});
