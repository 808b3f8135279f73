import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../src/settings/chatbot-settings.js';
import { MODEL_IDS } from '../../src/settings/models.js';
import {
  call,
  createChatbotViaApi,
  INVALID,
  NOT_FOUND,
  startApp,
  type TestApp,
} from '../support/http.js';
import { storeTargets } from '../support/stores.js';

const SAVED = { status: 202, body: { message: 'Your changes are saved.' } };

describe.each(storeTargets.filter((t) => t.available))('$name store', (target) => {
  let app: TestApp;
  let chatbotId: string;

  const update = (body: unknown, apiKey = app.apiKey) =>
    call('POST', `${app.baseUrl}/update-chatbot-settings`, apiKey, body);
  const stored = () => app.store.chatbots.find(app.accountId, chatbotId);
  const listItem = async () => {
    const { body } = await call('GET', `${app.baseUrl}/get-chatbots`, app.apiKey);
    return (body as { chatbots: Record<string, unknown>[] }).chatbots.find((item) => item.id === chatbotId);
  };

  beforeEach(async () => {
    app = await startApp(target);
    chatbotId = await createChatbotViaApi(app, 'Helper');
  });
  afterEach(async () => {
    await app.close();
  });

  describe('POST /update-chatbot-settings', () => {
    it('starts from the default settings', async () => {
      expect((await stored())?.settings).toEqual(defaultSettings('Helper'));
    });

    it('saves every field at once', async () => {
      const settings = {
        instructions: 'Answer in French.',
        initialMessages: ['Bonjour !', 'Comment puis-je aider ?'],
        suggestedMessages: ['Horaires', 'Retours'],
        visibility: 'public',
        domains: ['example.com', 'shop.example.org'],
        onlyAllowOnAddedDomains: true,
        ipLimit: 5,
        ipLimitTimeframe: 60,
        ipLimitMessage: 'Slow down.',
        model: 'vendor2-sonnet-4-6',
        temp: 0.7,
        styles: {
          theme: 'dark',
          buttonColor: '#112233',
          displayName: 'Assistant',
          alignChatButton: 'left',
          userMessageColor: '#abc',
          autoOpenChatWindowAfter: 0,
        },
        collectCustomerInformation: {
          title: 'Who are you?',
          name: { active: true, label: 'Your name' },
          email: { active: true, label: 'Your email' },
          phone: { active: false, label: 'Your phone' },
        },
        handoff: {
          enabled: true,
          platform: 'slack',
          workspaceId: 'T0001',
          channelId: 'C0001',
          onRequest: false,
          afterDeclines: 0,
          keywords: ['refund', 'talk to sales'],
          waitMinutes: 0.05,
          idleMinutes: 12.5,
          waitingMessage: 'Hold on.',
          offlineMessage: 'Nobody is in.',
        },
      };
      const before = await stored();
      expect(await update({ chatbotId, name: 'Renamed', ...settings })).toEqual(SAVED);

      const after = await stored();
      expect(after?.name).toBe('Renamed');
      expect(after?.settings).toEqual(settings);
      expect(after?.createdAt).toEqual(before?.createdAt);
      expect(after?.updatedAt.getTime()).toBeGreaterThanOrEqual(before?.updatedAt.getTime() ?? Infinity);
      expect(await listItem()).toMatchObject({
        id: chatbotId,
        name: 'Renamed',
        model: 'vendor2-sonnet-4-6',
        instructions: 'Answer in French.',
        visibility: 'public',
        updated_at: after?.updatedAt.toISOString(),
      });
    });

    it('keeps the fields a partial update omits', async () => {
      expect(await update({ chatbotId, instructions: 'Be brief.', model: 'vendor3-2.5-pro' })).toEqual(SAVED);
      expect(await update({ chatbotId, visibility: 'public' })).toEqual(SAVED);

      const expected = { ...defaultSettings('Helper'), instructions: 'Be brief.', model: 'vendor3-2.5-pro', visibility: 'public' };
      expect((await stored())?.settings).toEqual(expected);
      expect((await stored())?.name).toBe('Helper');
      expect(await listItem()).toMatchObject({
        name: 'Helper',
        instructions: 'Be brief.',
        model: 'vendor3-2.5-pro',
        visibility: 'public',
      });
    });

    it('answers saved for an update with only the chatbotId and changes no setting', async () => {
      expect(await update({ chatbotId })).toEqual(SAVED);
      expect((await stored())?.settings).toEqual(defaultSettings('Helper'));
    });

    it('merges styles key by key', async () => {
      expect(await update({ chatbotId, styles: { buttonColor: '#000000' } })).toEqual(SAVED);
      expect(await update({ chatbotId, styles: { theme: 'dark', autoOpenChatWindowAfter: 10 } })).toEqual(SAVED);
      expect((await stored())?.settings.styles).toEqual({
        ...defaultSettings('Helper').styles,
        buttonColor: '#000000',
        theme: 'dark',
        autoOpenChatWindowAfter: 10,
      });
    });

    it('merges collectCustomerInformation field by field', async () => {
      expect(await update({ chatbotId, collectCustomerInformation: { email: { active: true } } })).toEqual(SAVED);
      expect(await update({ chatbotId, collectCustomerInformation: { title: 'Hello', phone: { label: 'Mobile' } } })).toEqual(
        SAVED,
      );
      const defaults = defaultSettings('Helper').collectCustomerInformation;
      expect((await stored())?.settings.collectCustomerInformation).toEqual({
        ...defaults,
        title: 'Hello',
        email: { active: true, label: 'Email' },
        phone: { active: false, label: 'Mobile' },
      });
    });

    it('merges handoff key by key, from its defaults', async () => {
      expect(defaultSettings('Helper').handoff).toMatchObject({
        enabled: false,
        onRequest: true,
        afterDeclines: 2,
        keywords: [],
        waitMinutes: 5,
        idleMinutes: 30,
      });
      expect(await update({ chatbotId, handoff: { enabled: true, platform: 'discord', channelId: '42' } })).toEqual(SAVED);
      expect(await update({ chatbotId, handoff: { keywords: ['invoice'], waitMinutes: 0.05 } })).toEqual(SAVED);
      expect((await stored())?.settings.handoff).toEqual({
        ...defaultSettings('Helper').handoff,
        enabled: true,
        platform: 'discord',
        channelId: '42',
        keywords: ['invoice'],
        waitMinutes: 0.05,
      });
      const { status, body } = await call('GET', `${app.baseUrl}/chatbots/${chatbotId}`, app.apiKey);
      expect(status).toBe(200);
      expect((body as { data: { settings: unknown } }).data.settings).toMatchObject({
        handoff: { enabled: true, platform: 'discord', channelId: '42', keywords: ['invoice'], waitMinutes: 0.05, idleMinutes: 30 },
      });
    });

    it('reads every handoff key back as saved, fractions of a minute down to 0.05 included', async () => {
      const handoff = {
        enabled: true,
        platform: 'slack',
        workspaceId: 'T0TEAM',
        channelId: 'C0HANDOFF',
        onRequest: false,
        afterDeclines: 0,
        keywords: ['refund', 'talk to sales'],
        waitMinutes: 0.05,
        idleMinutes: 0.05,
        waitingMessage: 'Hold on, please.',
        offlineMessage: 'Nobody is in.',
      };
      expect(await update({ chatbotId, handoff })).toEqual(SAVED);
      const { body } = await call('GET', `${app.baseUrl}/chatbots/${chatbotId}`, app.apiKey);
      expect((body as { data: { settings: { handoff: unknown } } }).data.settings.handoff).toEqual(handoff);
    });

    it('replaces arrays as a whole', async () => {
      expect(await update({ chatbotId, initialMessages: ['a', 'b', 'c'], domains: ['x.example'] })).toEqual(SAVED);
      expect(await update({ chatbotId, initialMessages: ['d'] })).toEqual(SAVED);
      const settings = (await stored())?.settings;
      expect(settings?.initialMessages).toEqual(['d']);
      expect(settings?.domains).toEqual(['x.example']);
    });

    it('accepts the temperature bounds 0 and 1', async () => {
      expect(await update({ chatbotId, temp: 1 })).toEqual(SAVED);
      expect((await stored())?.settings.temp).toBe(1);
      expect(await update({ chatbotId, temp: 0 })).toEqual(SAVED);
      expect((await stored())?.settings.temp).toBe(0);
    });

    it('accepts each of the 36 model identifiers', async () => {
      expect(MODEL_IDS).toHaveLength(36);
      for (const model of MODEL_IDS) {
        expect(await update({ chatbotId, model }), model).toEqual(SAVED);
        expect((await stored())?.settings.model, model).toBe(model);
        expect((await listItem())?.model, model).toBe(model);
      }
    });

    const invalidBodies: [string, (id: string) => unknown][] = [
      ['temp -0.1', (id) => ({ chatbotId: id, temp: -0.1 })],
      ['temp 1.1', (id) => ({ chatbotId: id, temp: 1.1 })],
      ['temp "0.5"', (id) => ({ chatbotId: id, temp: '0.5' })],
      ['a model outside the enumeration', (id) => ({ chatbotId: id, model: 'gpt-4o' })],
      ['a model in the wrong case', (id) => ({ chatbotId: id, model: 'AUTO' })],
      ['visibility "secret"', (id) => ({ chatbotId: id, visibility: 'secret' })],
      ['buttonColor "red"', (id) => ({ chatbotId: id, styles: { buttonColor: 'red' } })],
      ['initialMessages [1]', (id) => ({ chatbotId: id, initialMessages: [1] })],
      ['initialMessages as a string', (id) => ({ chatbotId: id, initialMessages: 'Hi' })],
      ['ipLimit -1', (id) => ({ chatbotId: id, ipLimit: -1 })],
      ['ipLimit 1.5', (id) => ({ chatbotId: id, ipLimit: 1.5 })],
      ['onlyAllowOnAddedDomains "true"', (id) => ({ chatbotId: id, onlyAllowOnAddedDomains: 'true' })],
      ['an unknown top-level field', (id) => ({ chatbotId: id, instructions: 'Changed', favouriteColour: 'blue' })],
      ['styles with an unknown key', (id) => ({ chatbotId: id, styles: { theme: 'dark', fontSize: 12 } })],
      [
        'collectCustomerInformation.email {active:"yes"}',
        (id) => ({ chatbotId: id, collectCustomerInformation: { email: { active: 'yes' } } }),
      ],
      ['handoff.platform "teams"', (id) => ({ chatbotId: id, handoff: { platform: 'teams' } })],
      ['handoff.waitMinutes 0.01', (id) => ({ chatbotId: id, handoff: { waitMinutes: 0.01 } })],
      ['handoff.idleMinutes 0', (id) => ({ chatbotId: id, handoff: { idleMinutes: 0 } })],
      ['handoff.afterDeclines 1.5', (id) => ({ chatbotId: id, handoff: { afterDeclines: 1.5 } })],
      ['handoff.keywords with a blank', (id) => ({ chatbotId: id, handoff: { keywords: ['refund', ' '] } })],
      ['handoff.enabled "yes"', (id) => ({ chatbotId: id, handoff: { enabled: 'yes' } })],
      ['handoff with an unknown key', (id) => ({ chatbotId: id, handoff: { enabled: true, queue: 'vip' } })],
      ['handoff.waitMinutes 0.049', (id) => ({ chatbotId: id, handoff: { waitMinutes: 0.049 } })],
      ['handoff.idleMinutes "30"', (id) => ({ chatbotId: id, handoff: { idleMinutes: '30' } })],
      ['handoff.afterDeclines -1', (id) => ({ chatbotId: id, handoff: { afterDeclines: -1 } })],
      ['handoff.keywords as a string', (id) => ({ chatbotId: id, handoff: { keywords: 'refund' } })],
      ['handoff.onRequest "no"', (id) => ({ chatbotId: id, handoff: { onRequest: 'no' } })],
      ['handoff.waitingMessage 42', (id) => ({ chatbotId: id, handoff: { waitingMessage: 42 } })],
      ['a valid handoff key beside an invalid one', (id) => ({ chatbotId: id, handoff: { enabled: true, waitMinutes: 0 } })],
      ['an empty name', (id) => ({ chatbotId: id, name: '' })],
      ['malformed JSON', (id) => `{"chatbotId":"${id}","temp":0.5`],
      ['a missing chatbotId', () => ({ temp: 0.5 })],
      ['an empty chatbotId', () => ({ chatbotId: '', temp: 0.5 })],
    ];
    it.each(invalidBodies)('answers 400 for %s and changes nothing', async (_case, makeBody) => {
      const before = await stored();
      expect(await update(makeBody(chatbotId))).toEqual({ status: 400, body: INVALID });
      expect(await stored()).toEqual(before);
    });

    it('rejects a whole update when one of its fields is invalid', async () => {
      expect(await update({ chatbotId, instructions: 'Changed', temp: 2 })).toEqual({ status: 400, body: INVALID });
      expect((await stored())?.settings.instructions).toBe(defaultSettings('Helper').instructions);
    });

    it('answers 404 for an unknown chatbot', async () => {
      expect(await update({ chatbotId: 'no-such-chatbot', temp: 0.5 })).toEqual({ status: 404, body: NOT_FOUND });
    });

    it("answers 404 for another account's chatbot and leaves it unchanged", async () => {
      const other = await app.addAccount('other');
      const theirs = await createChatbotViaApi(app, 'Theirs', 'text', other.apiKey);
      const before = await app.store.chatbots.find(other.accountId, theirs);
      expect(await update({ chatbotId: theirs, name: 'Hijacked', visibility: 'public' })).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
      expect(await app.store.chatbots.find(other.accountId, theirs)).toEqual(before);
    });
  });
});
