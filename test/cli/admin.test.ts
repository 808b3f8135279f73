import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAdmin, startMain, stop, tempDatabaseUrl } from '../support/processes.js';

describe('npm run admin', () => {
  it('create-account prints a working key alone on the last line, with the quota asked for', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    const created = await runAdmin(['create-account', 'acme', '--max-chatbots', '1'], { DATABASE_URL });
    expect(created.code).toBe(0);
    const key = created.stdout.trim().split('\n').at(-1) as string;
    expect(key).toMatch(/^sb_[A-Za-z0-9_-]{32}$/);

    const hub = await startMain({ DATABASE_URL });
    const create = (name: string) =>
      fetch(`${hub.apiUrl}/create-chatbot`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ chatbotName: name, sourceText: 'text' }),
      });
    expect((await create('one')).status).toBe(200);
    expect(await (await create('two')).json()).toEqual({ message: 'Access denied or quota exceeded' });
    expect(await stop(hub.child)).toBe(0);

    const listed = await runAdmin(['list-accounts'], { DATABASE_URL });
    expect(listed.stdout).toContain('acme\t10000 messages a month, up to 1 chatbot\t');

    const set = await runAdmin(['set-quota', 'acme', '--messages-per-month', '1', '--max-chatbots', '2'], { DATABASE_URL });
    expect(set).toMatchObject({ code: 0, stdout: 'acme: 1 message a month, up to 2 chatbots\n' });
  });

  it('refuses a duplicate name, a bad number and an unknown command with exit 2', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    expect((await runAdmin(['create-account', 'acme'], { DATABASE_URL })).code).toBe(0);
    const duplicate = await runAdmin(['create-account', 'acme'], { DATABASE_URL });
    expect(duplicate).toMatchObject({ code: 2, stdout: '' });
    expect(duplicate.stderr).toContain('exists');
    const badNumber = await runAdmin(['create-account', 'b', '--max-chatbots', '0'], { DATABASE_URL });
    expect(badNumber.code).toBe(2);
    expect((await runAdmin(['frobnicate'], { DATABASE_URL })).code).toBe(2);
  });

  it('says in one sentence that the database cannot be reached or opened, exiting 1', async () => {
    const unreachable = await runAdmin(['list-accounts'], { DATABASE_URL: 'mongodb://127.0.0.1:1/switchboard?serverSelectionTimeoutMS=200' });
    expect(unreachable).toEqual({
      code: 1,
      stdout: '',
      stderr: 'admin: the MongoDB database DATABASE_URL names cannot be reached (connect ECONNREFUSED 127.0.0.1:1).\n',
    });
    const notADatabase = join(mkdtempSync(join(tmpdir(), 'switchboard-')), 'notes.txt');
    writeFileSync(notADatabase, 'not a database, but long enough to be read as one by SQLite at all');
    const unopenable = await runAdmin(['list-accounts'], { DATABASE_URL: `sqlite:${notADatabase}` });
    expect(unopenable).toEqual({ code: 1, stdout: '', stderr: 'admin: the SQLite database DATABASE_URL names cannot be opened (file is not a database).\n' });
  });

  it('create-key issues another key for an existing account', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    await runAdmin(['create-account', 'acme'], { DATABASE_URL });
    const issued = await runAdmin(['create-key', 'acme'], { DATABASE_URL });
    expect(issued.code).toBe(0);
    expect(issued.stdout.trim().split('\n').at(-1)).toMatch(/^sb_/);
    expect((await runAdmin(['create-key', 'nobody'], { DATABASE_URL })).code).toBe(2);
  });

  it('create-key with a bad label prints nothing a script could take for a key', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    await runAdmin(['create-account', 'acme'], { DATABASE_URL });
    const refused = await runAdmin(['create-key', 'acme', '--label', ''], { DATABASE_URL });
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain('--label takes 1 to 100 characters');
  });

  it('delete-account asks for --yes, then deletes the account, so its key no longer signs in', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    const key = (await runAdmin(['create-account', 'acme'], { DATABASE_URL })).stdout.trim().split('\n').at(-1) as string;
    await runAdmin(['create-account', 'other'], { DATABASE_URL });

    const unconfirmed = await runAdmin(['delete-account', 'acme'], { DATABASE_URL });
    expect(unconfirmed).toMatchObject({ code: 2, stdout: '' });
    expect(unconfirmed.stderr).toContain("deletes acme's 0 chatbots with their sources, conversations, contacts and leads");
    expect(unconfirmed.stderr).toContain('add --yes');

    const deleted = await runAdmin(['delete-account', 'acme', '--yes'], { DATABASE_URL });
    expect(deleted).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Deleted acme's 0 chatbots/) });
    const listed = (await runAdmin(['list-accounts'], { DATABASE_URL })).stdout;
    expect(listed).not.toContain('acme\t');
    expect(listed).toContain('other\t');

    const hub = await startMain({ DATABASE_URL });
    const response = await fetch(`${hub.apiUrl}/get-chatbots`, { headers: { Authorization: `Bearer ${key}` } });
    expect(response.status).toBe(401);
    expect(await stop(hub.child)).toBe(0);
  }, 60_000);

  it('console-link prints a one-time sign-in link under PUBLIC_URL that signs in once', async () => {
    const DATABASE_URL = tempDatabaseUrl();
    await runAdmin(['create-account', 'acme'], { DATABASE_URL });
    const printed = await runAdmin(['console-link', 'acme'], { DATABASE_URL, PUBLIC_URL: 'https://hub.example.org/' });
    expect(printed.code).toBe(0);
    const link = printed.stdout.trim().split('\n').at(-1) as string;
    expect(link).toMatch(/^https:\/\/hub\.example\.org\/console\/link#[\w-]{43}$/);
    expect((await runAdmin(['console-link', 'nobody'], { DATABASE_URL })).code).toBe(2);

    const hub = await startMain({ DATABASE_URL });
    const signIn = async () => {
      const response = await fetch(`${hub.apiUrl}/console/sessions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: new URL(hub.apiUrl).origin },
        body: JSON.stringify({ linkToken: link.split('#')[1] }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect(await signIn()).toMatchObject({ status: 200, body: { data: { account: { name: 'acme' } } } });
    expect(await signIn()).toEqual({ status: 401, body: { message: 'No API key provided.' } });
    expect(await stop(hub.child)).toBe(0);
  });
});
