import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi, INVALID, NO_KEY, NOT_FOUND, startApp, type TestApp } from '../support/http.js';
import { storeTargets } from '../support/stores.js';

type AttributeBody = { name: string; label: string; type: string; description: string; archived: boolean };

const plan = { name: 'plan', label: 'Plan', type: 'text', description: 'Subscription plan' };

describe.each(storeTargets.filter((t) => t.available))('$name store', (target) => {
  let app: TestApp;
  let chatbotId: string;

  const attributesUrl = (bot = chatbotId) => `${app.baseUrl}/chatbots/${bot}/custom-attributes`;
  const attributeUrl = (name: string, bot = chatbotId) => `${attributesUrl(bot)}/${encodeURIComponent(name)}`;

  async function createAttribute(attribute: object, bot = chatbotId, apiKey = app.apiKey): Promise<AttributeBody> {
    const { status, body } = await call('POST', attributesUrl(bot), apiKey, attribute);
    expect(status).toBe(200);
    return (body as { data: AttributeBody }).data;
  }

  async function listAttributes(bot = chatbotId, apiKey = app.apiKey): Promise<AttributeBody[]> {
    const { status, body } = await call('GET', attributesUrl(bot), apiKey);
    expect(status).toBe(200);
    expect((body as { message: string }).message).toBe('Success');
    return (body as { data: AttributeBody[] }).data;
  }

  beforeEach(async () => {
    app = await startApp(target);
    chatbotId = await createChatbotViaApi(app);
  });
  afterEach(async () => {
    await app.close();
  });

  /** A chatbot of another account, holding a `plan` attribute. */
  async function strangersChatbot() {
    const stranger = await app.addAccount('stranger');
    const bot = await createChatbotViaApi(app, 'Theirs', 'text', stranger.apiKey);
    await createAttribute(plan, bot, stranger.apiKey);
    return { ...stranger, bot };
  }

  describe('GET /chatbots/{chatbotId}/custom-attributes', () => {
    it('answers an empty schema for a new chatbot', async () => {
      expect(await call('GET', attributesUrl(), app.apiKey)).toEqual({ status: 200, body: { message: 'Success', data: [] } });
    });

    it('lists the chatbot’s attributes oldest first, with exactly the contract’s fields', async () => {
      await createAttribute(plan);
      await createAttribute({ name: 'seats', label: 'Seats', type: 'number' });
      await createAttribute({ name: 'legacy', label: 'Legacy', type: 'boolean' });
      await call('PUT', attributeUrl('legacy'), app.apiKey, { archived: true });
      const otherBot = await createChatbotViaApi(app, 'Other');
      await createAttribute({ name: 'other', label: 'Other', type: 'date' }, otherBot);
      expect(await listAttributes()).toEqual([
        { ...plan, archived: false },
        { name: 'seats', label: 'Seats', type: 'number', description: '', archived: false },
        { name: 'legacy', label: 'Legacy', type: 'boolean', description: '', archived: true },
      ]);
      expect((await listAttributes(otherBot)).map((attribute) => attribute.name)).toEqual(['other']);
    });

    it('answers 404 for an unknown chatbot or another account’s', async () => {
      const stranger = await strangersChatbot();
      expect(await call('GET', attributesUrl('no-such-chatbot'), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('GET', attributesUrl(stranger.bot), app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    });

    it('answers 401 without a key', async () => {
      expect(await call('GET', attributesUrl(), undefined)).toEqual({ status: 401, body: NO_KEY });
    });
  });

  describe('POST /chatbots/{chatbotId}/custom-attributes', () => {
    it.each(['text', 'number', 'boolean', 'date'])('creates a %s attribute and answers it', async (type) => {
      const attribute = { name: `field_${type}`, label: `A ${type}`, type, description: 'Why it matters' };
      expect(await call('POST', attributesUrl(), app.apiKey, attribute)).toEqual({
        status: 200,
        body: { message: 'Success', data: { ...attribute, archived: false } },
      });
      expect(await listAttributes()).toEqual([{ ...attribute, archived: false }]);
    });

    it('defaults the description to empty and accepts names up to 64 characters', async () => {
      const name = `_${'a'.repeat(63)}`;
      expect(await createAttribute({ name, label: 'Long', type: 'text' })).toEqual({
        name,
        label: 'Long',
        type: 'text',
        description: '',
        archived: false,
      });
    });

    it('accepts the hosted reference\'s body: name and type only, hyphens, archived, unknown fields dropped', async () => {
      expect(await createAttribute({ name: 'plan-tier', type: 'number' })).toEqual({
        name: 'plan-tier',
        label: 'plan-tier',
        type: 'number',
        description: '',
        archived: false,
      });
      const sent = { name: 'legacy', label: 'Legacy', type: 'text', description: 'Old', archived: false, colour: 'red' };
      expect(await createAttribute(sent)).toEqual({ ...plan, name: 'legacy', label: 'Legacy', description: 'Old', archived: false });
      expect((await createAttribute({ name: 'gone', type: 'date', archived: true })).archived).toBe(true);
      expect((await listAttributes()).map((attribute) => attribute.name)).toEqual(['plan-tier', 'legacy', 'gone']);
    });

    it('answers 400 for a name the chatbot already has, keeping the first', async () => {
      await createAttribute(plan);
      expect(await call('POST', attributesUrl(), app.apiKey, { ...plan, type: 'number', label: 'Other' })).toEqual({
        status: 400,
        body: INVALID,
      });
      expect(await listAttributes()).toEqual([{ ...plan, archived: false }]);
    });

    it('lets different chatbots use the same name', async () => {
      const otherBot = await createChatbotViaApi(app, 'Other');
      await createAttribute(plan);
      await createAttribute({ ...plan, type: 'number' }, otherBot);
      expect((await listAttributes(otherBot))[0]?.type).toBe('number');
      expect((await listAttributes())[0]?.type).toBe('text');
    });

    const invalidBodies: [string, unknown][] = [
      ['a missing name', { label: 'Plan', type: 'text' }],
      ['an empty name', { ...plan, name: '' }],
      ['a name starting with a digit', { ...plan, name: '1plan' }],
      ['a name with a dot', { ...plan, name: 'a.b' }],
      ['a name with a dollar', { ...plan, name: '$plan' }],
      ['a name starting with two underscores', { ...plan, name: '__proto__' }],
      ['a name over 64 characters', { ...plan, name: 'a'.repeat(65) }],
      ['a blank label', { ...plan, label: '   ' }],
      ['a missing type', { name: 'plan', label: 'Plan' }],
      ['an unknown type', { ...plan, type: 'string' }],
      ['a numeric description', { ...plan, description: 5 }],
      ['malformed JSON', '{"name": "plan", "label": "Plan", "type": "text"'],
    ];
    it.each(invalidBodies)('answers 400 for %s and creates nothing', async (_case, body) => {
      expect(await call('POST', attributesUrl(), app.apiKey, body)).toEqual({ status: 400, body: INVALID });
      expect(await listAttributes()).toEqual([]);
    });

    it('answers 404 for an unknown chatbot or another account’s', async () => {
      const stranger = await strangersChatbot();
      const attribute = { name: 'intruder', label: 'Intruder', type: 'text' };
      expect(await call('POST', attributesUrl('no-such-chatbot'), app.apiKey, attribute)).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await call('POST', attributesUrl(stranger.bot), app.apiKey, attribute)).toEqual({ status: 404, body: NOT_FOUND });
      expect((await listAttributes(stranger.bot, stranger.apiKey)).map((a) => a.name)).toEqual(['plan']);
    });

    it('answers 401 without a key', async () => {
      expect(await call('POST', attributesUrl(), undefined, plan)).toEqual({ status: 401, body: NO_KEY });
      expect(await listAttributes()).toEqual([]);
    });
  });

  describe('PUT /chatbots/{chatbotId}/custom-attributes/{name}', () => {
    it('relabels, describes, archives and unarchives, changing only what is given', async () => {
      await createAttribute(plan);
      const put = async (change: object) => {
        const { status, body } = await call('PUT', attributeUrl('plan'), app.apiKey, change);
        expect(status).toBe(200);
        expect((body as { message: string }).message).toBe('Success');
        return (body as { data: AttributeBody }).data;
      };
      expect(await put({ label: 'Tier' })).toEqual({ ...plan, label: 'Tier', archived: false });
      expect(await put({ description: '' })).toEqual({ ...plan, label: 'Tier', description: '', archived: false });
      expect(await put({ archived: true })).toEqual({ ...plan, label: 'Tier', description: '', archived: true });
      expect(await listAttributes()).toEqual([{ ...plan, label: 'Tier', description: '', archived: true }]);
      expect(await put({ archived: false, label: 'Plan again' })).toEqual({
        ...plan,
        label: 'Plan again',
        description: '',
        archived: false,
      });
    });

    const invalidChanges: [string, unknown][] = [
      ['an empty change', {}],
      ['a type change', { type: 'number' }],
      ['a rename', { name: 'tier' }],
      ['a blank label', { label: '' }],
      ['a non-boolean archived flag', { archived: 'yes' }],
      ['a null description', { description: null }],
      ['malformed JSON', '{"label": "Tier"'],
    ];
    it.each(invalidChanges)('answers 400 for %s and changes nothing', async (_case, body) => {
      await createAttribute(plan);
      expect(await call('PUT', attributeUrl('plan'), app.apiKey, body)).toEqual({ status: 400, body: INVALID });
      expect(await listAttributes()).toEqual([{ ...plan, archived: false }]);
    });

    it('answers 404 for an unknown attribute, chatbot, or another account’s chatbot', async () => {
      await createAttribute(plan);
      const otherBot = await createChatbotViaApi(app, 'Other');
      const stranger = await strangersChatbot();
      const change = { label: 'Hijacked' };
      expect(await call('PUT', attributeUrl('missing'), app.apiKey, change)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('PUT', attributeUrl('plan', otherBot), app.apiKey, change)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await call('PUT', attributeUrl('plan', 'no-such-chatbot'), app.apiKey, change)).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await call('PUT', attributeUrl('plan', stranger.bot), app.apiKey, change)).toEqual({ status: 404, body: NOT_FOUND });
      expect((await listAttributes(stranger.bot, stranger.apiKey))[0]?.label).toBe('Plan');
      expect(await listAttributes()).toEqual([{ ...plan, archived: false }]);
    });

    it('answers 401 without a key', async () => {
      await createAttribute(plan);
      expect(await call('PUT', attributeUrl('plan'), undefined, { label: 'x' })).toEqual({ status: 401, body: NO_KEY });
      expect(await listAttributes()).toEqual([{ ...plan, archived: false }]);
    });
  });
});
