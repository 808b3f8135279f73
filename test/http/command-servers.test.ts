import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, INVALID, NO_KEY, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

// Where the Discord adapter may have registered /chatbot per server: it reads the record at start
// and looks for a leftover only in the servers it holds (adapters/discord/registration.ts).

const APPLICATION = '1234567890123456789';

describe.each(storeTargets.filter((t) => t.available))('$name store: /integrations/discord/{applicationId}/command-servers', (target) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await startApp(target);
  });
  afterEach(async () => {
    await app.close();
  });

  const path = (applicationId: string) => `${app.baseUrl}/integrations/discord/${applicationId}/command-servers`;
  const read = (apiKey: string | undefined, applicationId = APPLICATION) => call('GET', path(applicationId), apiKey);
  const record = (apiKey: string | undefined, body: unknown, applicationId = APPLICATION) => call('PUT', path(applicationId), apiKey, body);
  const recorded = (serverIds: string[] | null, applicationId = APPLICATION) => ({
    status: 200,
    body: { message: 'Success', data: { applicationId, serverIds } },
  });

  it('answers null before a record, then the servers last recorded, each once, per account and application', async () => {
    expect(await read(app.apiKey)).toEqual(recorded(null));
    expect(await record(app.apiKey, { serverIds: ['111', '222', '111'] })).toEqual(recorded(['111', '222']));
    expect(await read(app.apiKey)).toEqual(recorded(['111', '222']));
    expect(await record(app.apiKey, { serverIds: [] })).toEqual(recorded([]));
    expect(await read(app.apiKey)).toEqual(recorded([]));
    expect(await read(app.apiKey, '42')).toEqual(recorded(null, '42'));
    const other = await app.addAccount('other');
    expect(await read(other.apiKey)).toEqual(recorded(null));
  });

  it('refuses bad input with the contract body and records nothing', async () => {
    for (const body of [{}, { serverIds: 'x' }, { serverIds: ['not-a-snowflake'] }, { serverIds: ['1'.repeat(21)] }, { serverIds: [], extra: 1 }, { serverIds: Array.from({ length: 1_001 }, (_, i) => String(i)) }]) {
      expect(await record(app.apiKey, body)).toEqual({ status: 400, body: INVALID });
    }
    expect(await record(app.apiKey, { serverIds: ['1'] }, 'app')).toEqual({ status: 400, body: INVALID });
    expect(await read(app.apiKey, 'app')).toEqual({ status: 400, body: INVALID });
    expect(await read(app.apiKey)).toEqual(recorded(null));
    expect(await read(undefined)).toEqual({ status: 401, body: NO_KEY });
    expect(await record(undefined, { serverIds: [] })).toEqual({ status: 401, body: NO_KEY });
  });
});
