import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chunkText } from '../../src/engine/chunking.js';
import {
  call,
  createChatbotViaApi,
  DENIED,
  IMAGES,
  imageForm,
  INVALID,
  jsonRequest,
  NOT_FOUND,
  readJson,
  startApp,
  bearer,
  type TestApp,
} from '../support/http.js';
import { storeTargets } from '../support/stores.js';

const ITEM_KEYS = ['created_at', 'id', 'instructions', 'model', 'name', 'status', 'updated_at', 'visibility'];
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

type Item = Record<string, unknown> & { id: string; name: string };

async function listChatbots(app: TestApp, apiKey = app.apiKey): Promise<Item[]> {
  const { status, body } = await call('GET', `${app.baseUrl}/get-chatbots`, apiKey);
  expect(status).toBe(200);
  return (body as { chatbots: Item[] }).chatbots;
}

describe.each(storeTargets.filter((t) => t.available))('$name store', (target) => {
  let app: TestApp;

  beforeEach(async () => {
    app = await startApp(target);
  });
  afterEach(async () => {
    await app.close();
  });

  describe('POST /create-chatbot', () => {
    it('creates a ready chatbot trained on the source text and answers its id', async () => {
      const sourceText = 'First paragraph about opening hours.\n\nSecond paragraph about returns.';
      const response = await jsonRequest('POST', `${app.baseUrl}/create-chatbot`, app.apiKey, {
        chatbotName: 'Shop helper',
        sourceText,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as { chatbotId: string };
      expect(Object.keys(body)).toEqual(['chatbotId']);
      expect(body.chatbotId).toEqual(expect.any(String));
      expect(body.chatbotId.length).toBeGreaterThan(0);

      const stored = await app.store.chatbots.find(app.accountId, body.chatbotId);
      expect(stored).toMatchObject({ id: body.chatbotId, name: 'Shop helper', status: 'ready' });
      expect(await app.store.training.sourceText(body.chatbotId)).toBe(sourceText);
      const chunks = (await app.store.training.material(body.chatbotId)).chunks;
      expect(chunks.map((chunk) => chunk.text)).toEqual(chunkText(sourceText));
    });

    it('accepts an empty source text', async () => {
      const { status, body } = await call('POST', `${app.baseUrl}/create-chatbot`, app.apiKey, {
        chatbotName: 'Empty',
        sourceText: '',
      });
      expect(status).toBe(200);
      expect(body).toEqual({ chatbotId: expect.any(String) });
    });

    it('needs only chatbotName, as the hosted reference does, and trains on nothing', async () => {
      const { status, body } = await call('POST', `${app.baseUrl}/create-chatbot`, app.apiKey, { chatbotName: 'Bare' });
      expect(status).toBe(200);
      const { chatbotId } = body as { chatbotId: string };
      expect(await app.store.chatbots.find(app.accountId, chatbotId)).toMatchObject({ name: 'Bare', status: 'ready' });
      expect(await app.store.training.sourceText(chatbotId)).toBe('');
    });

    it('gives every chatbot its own id', async () => {
      const first = await createChatbotViaApi(app, 'One');
      const second = await createChatbotViaApi(app, 'Two');
      expect(first).not.toBe(second);
      expect((await listChatbots(app)).map((item) => item.name).sort()).toEqual(['One', 'Two']);
    });

    const invalidBodies: [string, unknown][] = [
      ['a missing chatbotName', { sourceText: 'text' }],
      ['an empty chatbotName', { chatbotName: '', sourceText: 'text' }],
      ['a blank chatbotName', { chatbotName: '   ', sourceText: 'text' }],
      ['a numeric chatbotName', { chatbotName: 42, sourceText: 'text' }],
      ['a two-character chatbotName', { chatbotName: 'Bo', sourceText: 'text' }],
      ['a numeric sourceText', { chatbotName: 'Bot', sourceText: 12 }],
      ['an array sourceText', { chatbotName: 'Bot', sourceText: ['a', 'b'] }],
      ['a null sourceText', { chatbotName: 'Bot', sourceText: null }],
      ['malformed JSON', '{"chatbotName": "Bot", "sourceText": '],
      ['a JSON array', [{ chatbotName: 'Bot', sourceText: 'text' }]],
    ];
    it.each(invalidBodies)('answers 400 for %s and creates nothing', async (_case, body) => {
      expect(await call('POST', `${app.baseUrl}/create-chatbot`, app.apiKey, body)).toEqual({
        status: 400,
        body: INVALID,
      });
      expect(await app.store.chatbots.list(app.accountId)).toEqual([]);
    });

    it('answers 400 for a body that is not JSON', async () => {
      const response = await fetch(`${app.baseUrl}/create-chatbot`, {
        method: 'POST',
        headers: { ...bearer(app.apiKey), 'Content-Type': 'text/plain' },
        body: 'chatbotName=Bot&sourceText=text',
      });
      expect(await readJson(response)).toEqual({ status: 400, body: INVALID });
      expect(await app.store.chatbots.list(app.accountId)).toEqual([]);
    });

    it('answers 400 for a form-encoded body', async () => {
      const response = await fetch(`${app.baseUrl}/create-chatbot`, {
        method: 'POST',
        headers: bearer(app.apiKey),
        body: new URLSearchParams({ chatbotName: 'Bot', sourceText: 'text' }),
      });
      expect(await readJson(response)).toEqual({ status: 400, body: INVALID });
      expect(await app.store.chatbots.list(app.accountId)).toEqual([]);
    });

    it('answers 400 for a JSON body over the size limit', async () => {
      const sourceText = 'a'.repeat(17 * 1024 * 1024);
      expect(await call('POST', `${app.baseUrl}/create-chatbot`, app.apiKey, { chatbotName: 'Big', sourceText })).toEqual({
        status: 400,
        body: INVALID,
      });
      expect(await app.store.chatbots.list(app.accountId)).toEqual([]);
    });

    it('answers 403 past the account quota of chatbots', async () => {
      const { apiKey, accountId } = await app.addAccount('small', { messagesPerMonth: 100, maxChatbots: 2 });
      await createChatbotViaApi(app, 'One', 'text', apiKey);
      await createChatbotViaApi(app, 'Two', 'text', apiKey);
      expect(
        await call('POST', `${app.baseUrl}/create-chatbot`, apiKey, { chatbotName: 'Three', sourceText: 'text' }),
      ).toEqual({ status: 403, body: DENIED });
      expect((await app.store.chatbots.list(accountId)).map((chatbot) => chatbot.name).sort()).toEqual(['One', 'Two']);
    });

    it('frees quota when a chatbot is deleted', async () => {
      const { apiKey } = await app.addAccount('small', { messagesPerMonth: 100, maxChatbots: 1 });
      const id = await createChatbotViaApi(app, 'One', 'text', apiKey);
      expect((await call('DELETE', `${app.baseUrl}/delete-chatbot`, apiKey, { chatbotId: id })).status).toBe(200);
      expect((await call('POST', `${app.baseUrl}/create-chatbot`, apiKey, { chatbotName: 'Two', sourceText: '' })).status).toBe(200);
    });

    it('lets exactly the quota succeed when creates race', async () => {
      const { apiKey } = await app.addAccount('racer', { messagesPerMonth: 100, maxChatbots: 3 });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          call('POST', `${app.baseUrl}/create-chatbot`, apiKey, { chatbotName: `Bot ${i}`, sourceText: `text ${i}` }),
        ),
      );
      const statuses = results.map((result) => result.status).sort();
      expect(statuses).toEqual([200, 200, 200, 403, 403, 403]);
      for (const result of results) {
        if (result.status === 403) expect(result.body).toEqual(DENIED);
      }
      const created = results.filter((r) => r.status === 200).map((r) => (r.body as { chatbotId: string }).chatbotId);
      const listed = await listChatbots(app, apiKey);
      expect(listed).toHaveLength(3);
      expect(listed.map((item) => item.id).sort()).toEqual([...created].sort());
    });
  });

  describe('POST /update-chatbot-data', () => {
    it('renames and retrains the chatbot', async () => {
      const id = await createChatbotViaApi(app, 'Old name', 'Old material about cats.');
      const before = await app.store.chatbots.find(app.accountId, id);
      const sourceText = 'New material about dogs.\n\nAnd a second paragraph about birds.';
      expect(
        await call('POST', `${app.baseUrl}/update-chatbot-data`, app.apiKey, {
          chatbotId: id,
          chatbotName: 'New name',
          sourceText,
        }),
      ).toEqual({ status: 200, body: { chatbotId: id } });

      const after = await app.store.chatbots.find(app.accountId, id);
      expect(after).toMatchObject({ name: 'New name', status: 'ready' });
      expect(after?.updatedAt.getTime()).toBeGreaterThanOrEqual(before?.updatedAt.getTime() ?? Infinity);
      expect(after?.settings).toEqual(before?.settings);
      expect(await app.store.training.sourceText(id)).toBe(sourceText);
      const chunks = (await app.store.training.material(id)).chunks;
      expect(chunks.map((chunk) => chunk.text)).toEqual(chunkText(sourceText));
      expect(chunks.map((chunk) => chunk.text).join(' ')).not.toContain('cats');
      expect((await listChatbots(app)).map((item) => item.name)).toEqual(['New name']);
    });

    it('renames without retraining when no sourceText is given', async () => {
      const id = await createChatbotViaApi(app, 'Keeper', 'Old material.');
      const before = await app.store.training.material(id);
      expect(
        await call('POST', `${app.baseUrl}/update-chatbot-data`, app.apiKey, { chatbotId: id, chatbotName: 'Renamed' }),
      ).toEqual({ status: 200, body: { chatbotId: id } });
      expect((await app.store.chatbots.find(app.accountId, id))?.name).toBe('Renamed');
      expect(await app.store.training.sourceText(id)).toBe('Old material.');
      expect(await app.store.training.material(id)).toEqual(before);
    });

    it('answers 404 for an unknown chatbot', async () => {
      expect(
        await call('POST', `${app.baseUrl}/update-chatbot-data`, app.apiKey, {
          chatbotId: 'no-such-chatbot',
          chatbotName: 'Name',
          sourceText: 'text',
        }),
      ).toEqual({ status: 404, body: NOT_FOUND });
    });

    it("answers 404 for another account's chatbot and leaves it untouched", async () => {
      const other = await app.addAccount('other');
      const id = await createChatbotViaApi(app, 'Theirs', 'Their material.', other.apiKey);
      expect(
        await call('POST', `${app.baseUrl}/update-chatbot-data`, app.apiKey, {
          chatbotId: id,
          chatbotName: 'Hijacked',
          sourceText: 'Hijacked material.',
        }),
      ).toEqual({ status: 404, body: NOT_FOUND });
      expect((await app.store.chatbots.find(other.accountId, id))?.name).toBe('Theirs');
      expect(await app.store.training.sourceText(id)).toBe('Their material.');
    });

    const invalidBodies: [string, (id: string) => unknown][] = [
      ['a missing chatbotId', () => ({ chatbotName: 'Name', sourceText: 'text' })],
      ['an empty chatbotId', () => ({ chatbotId: '', chatbotName: 'Name', sourceText: 'text' })],
      ['a numeric chatbotId', () => ({ chatbotId: 7, chatbotName: 'Name', sourceText: 'text' })],
      ['a missing chatbotName', (id) => ({ chatbotId: id, sourceText: 'text' })],
      ['a two-character chatbotName', (id) => ({ chatbotId: id, chatbotName: 'Ab' })],
      ['a numeric sourceText', (id) => ({ chatbotId: id, chatbotName: 'Name', sourceText: 3 })],
      ['an empty chatbotName', (id) => ({ chatbotId: id, chatbotName: '', sourceText: 'text' })],
      ['a numeric chatbotName', (id) => ({ chatbotId: id, chatbotName: 5, sourceText: 'text' })],
      ['malformed JSON', () => '{"chatbotId":'],
    ];
    it.each(invalidBodies)('answers 400 for %s and changes nothing', async (_case, makeBody) => {
      const id = await createChatbotViaApi(app, 'Stable', 'Stable material.');
      const before = await app.store.chatbots.find(app.accountId, id);
      expect(await call('POST', `${app.baseUrl}/update-chatbot-data`, app.apiKey, makeBody(id))).toEqual({
        status: 400,
        body: INVALID,
      });
      expect(await app.store.chatbots.find(app.accountId, id)).toEqual(before);
      expect(await app.store.training.sourceText(id)).toBe('Stable material.');
    });
  });

  describe('GET /get-chatbots', () => {
    it('answers an empty list for an account without chatbots', async () => {
      expect(await call('GET', `${app.baseUrl}/get-chatbots`, app.apiKey)).toEqual({
        status: 200,
        body: { chatbots: [] },
      });
    });

    it('lists items with exactly the contract fields, oldest first', async () => {
      const first = await createChatbotViaApi(app, 'Alpha');
      // Creation times are in milliseconds; keep the two apart so the order is by time alone.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await createChatbotViaApi(app, 'Beta');
      const { status, body } = await call('GET', `${app.baseUrl}/get-chatbots`, app.apiKey);
      expect(status).toBe(200);
      expect(Object.keys(body as object)).toEqual(['chatbots']);
      const items = (body as { chatbots: Item[] }).chatbots;
      expect(items.map((item) => item.id)).toEqual([first, second]);
      for (const item of items) {
        expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
        const stored = await app.store.chatbots.find(app.accountId, item.id);
        expect(item).toEqual({
          id: stored?.id,
          name: stored?.name,
          status: 'ready',
          model: 'auto',
          instructions: stored?.settings.instructions,
          visibility: 'private',
          created_at: stored?.createdAt.toISOString(),
          updated_at: stored?.updatedAt.toISOString(),
        });
        for (const time of [item.created_at, item.updated_at] as string[]) {
          expect(time).toMatch(ISO_8601);
          expect(new Date(time).toISOString()).toBe(time);
        }
        expect(Date.parse(item.updated_at as string)).toBeGreaterThanOrEqual(Date.parse(item.created_at as string));
      }
      expect(items.map((item) => item.name)).toEqual(['Alpha', 'Beta']);
    });

    it("lists only the caller's chatbots", async () => {
      const other = await app.addAccount('other');
      const mine = await createChatbotViaApi(app, 'Mine');
      const theirs = await createChatbotViaApi(app, 'Theirs', 'text', other.apiKey);
      expect((await listChatbots(app)).map((item) => item.id)).toEqual([mine]);
      expect((await listChatbots(app, other.apiKey)).map((item) => item.id)).toEqual([theirs]);
    });
  });

  describe('DELETE /delete-chatbot', () => {
    it('deletes a chatbot named in the JSON body, with its training and assets', async () => {
      const keep = await createChatbotViaApi(app, 'Keep');
      const id = await createChatbotViaApi(app, 'Doomed', 'Doomed material.');
      for (const [path, part] of [
        ['upload-chatbot-profile-picture', 'profilePictureFile'],
        ['upload-chatbot-icon', 'chatbotIconFile'],
      ] as const) {
        const response = await fetch(`${app.baseUrl}/${path}`, {
          method: 'POST',
          headers: bearer(app.apiKey),
          body: imageForm(id, part, { bytes: IMAGES.png, name: 'a.png', type: 'image/png' }),
        });
        expect(response.status).toBe(200);
      }
      expect(await app.store.assets.get(id, 'icon')).toBeDefined();

      expect(await call('DELETE', `${app.baseUrl}/delete-chatbot`, app.apiKey, { chatbotId: id })).toEqual({
        status: 200,
        body: { message: 'Deleted successfully' },
      });
      expect((await listChatbots(app)).map((item) => item.id)).toEqual([keep]);
      expect(await app.store.chatbots.find(app.accountId, id)).toBeUndefined();
      expect(await app.store.training.sourceText(id)).toBeUndefined();
      expect((await app.store.training.material(id)).chunks).toEqual([]);
      expect(await app.store.assets.get(id, 'profile-picture')).toBeUndefined();
      expect(await app.store.assets.get(id, 'icon')).toBeUndefined();
      expect((await fetch(`${app.origin}/assets/chatbots/${id}/icon`)).status).toBe(404);

      expect(await call('DELETE', `${app.baseUrl}/delete-chatbot`, app.apiKey, { chatbotId: id })).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await app.store.training.sourceText(keep)).toBeDefined();
    });

    it('deletes a chatbot named in the query string', async () => {
      const id = await createChatbotViaApi(app, 'Doomed');
      const url = `${app.baseUrl}/delete-chatbot?chatbotId=${encodeURIComponent(id)}`;
      const first = await call('DELETE', url, app.apiKey);
      expect(first).toEqual({ status: 200, body: { message: expect.any(String) } });
      expect(typeof (first.body as { message: unknown }).message).toBe('string');
      expect(await listChatbots(app)).toEqual([]);
      expect(await call('DELETE', url, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    });

    it('answers 404 for an unknown chatbot', async () => {
      expect(await call('DELETE', `${app.baseUrl}/delete-chatbot`, app.apiKey, { chatbotId: 'nope' })).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
    });

    it("answers 404 for another account's chatbot and keeps it", async () => {
      const other = await app.addAccount('other');
      const id = await createChatbotViaApi(app, 'Theirs', 'text', other.apiKey);
      expect(await call('DELETE', `${app.baseUrl}/delete-chatbot`, app.apiKey, { chatbotId: id })).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      expect((await listChatbots(app, other.apiKey)).map((item) => item.id)).toEqual([id]);
    });

    it.each([
      ['no chatbotId at all', undefined],
      ['an empty chatbotId', { chatbotId: '' }],
      ['a numeric chatbotId', { chatbotId: 5 }],
      ['malformed JSON', '{"chatbotId"'],
    ])('answers 400 for %s', async (_case, body) => {
      const id = await createChatbotViaApi(app, 'Survivor');
      expect(await call('DELETE', `${app.baseUrl}/delete-chatbot`, app.apiKey, body)).toEqual({
        status: 400,
        body: INVALID,
      });
      expect((await listChatbots(app)).map((item) => item.id)).toEqual([id]);
    });
  });
});
