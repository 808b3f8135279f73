import type { Page } from 'playwright-core';
import { PERSON_ASKED } from '../../src/domain/person-asked.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi } from '../support/http.js';
import { newPage, signIn, startConsole, type ConsoleRun } from './console.js';

// A team answering handoffs in the console on a busy day: each member in a browser of their own,
// several people waiting at once.

let run: ConsoleRun;
let chatbotId: string;

beforeAll(async () => {
  run = await startConsole();
  chatbotId = await createChatbotViaApi(run.app, 'Corner Shop', 'Corner Shop ships orders within two days.');
  await api('/update-chatbot-settings', { chatbotId, handoff: { enabled: true } });
});
afterAll(async () => {
  await run.close();
});

const api = (path: string, body?: unknown) => call('POST', `${run.app.baseUrl}${path}`, run.app.apiKey, body);

/** A person who asks for the team in a new conversation. */
const askForPerson = (conversationId: string) =>
  api('/chat', { chatbotId, conversationId, messages: [{ role: 'user', content: 'Can I talk to a person?' }] });

async function teamMember(): Promise<Page> {
  const page = await newPage(run);
  await signIn(page, run.app);
  return page;
}

async function openConversation(page: Page, conversationId: string): Promise<void> {
  await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity?conversation=${conversationId}`);
  await page.getByRole('form', { name: 'Reply as the team' }).waitFor();
}

/** Opens another conversation from the Open handoffs list, as a team member does. */
async function switchTo(page: Page, conversationId: string): Promise<void> {
  await page.getByRole('list', { name: 'Open handoffs' }).locator(`a[href$="conversation=${conversationId}"]`).click();
  await page.waitForURL(new RegExp(`conversation=${conversationId}$`));
}

async function teamRepliesIn(conversationId: string): Promise<{ name: string; content: string }[]> {
  const { body } = await call('GET', `${run.app.baseUrl}/get-conversations?chatbotId=${chatbotId}&size=50`, run.app.apiKey);
  type Saved = { id: string; messages: { content: string; author?: { name: string } }[] };
  const conversation = (body as { data: Saved[] }).data.find((saved) => saved.id === conversationId);
  return (conversation?.messages ?? []).flatMap(({ content, author }) => (author ? [{ name: author.name, content }] : []));
}

describe('a team reply in the transcript', () => {
  it('reads an Arabic reply from the right under a member named in Latin letters', async () => {
    await askForPerson('arabic-reply');
    const reply = 'سيصل طردك يوم الاثنين.';
    await call('POST', `${run.app.baseUrl}/chatbots/${chatbotId}/conversations/arabic-reply/handoff/messages`, run.app.apiKey, { name: 'Ada', text: reply });
    const page = await teamMember();
    await openConversation(page, 'arabic-reply');
    const text = page.getByRole('log', { name: 'Transcript' }).getByText(reply);
    expect(await text.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    await page.context().close();
  });
});

describe('a team member answering several people', () => {
  it('keeps a reply being typed with its conversation, and their name in every one', async () => {
    await askForPerson('first-person');
    await askForPerson('second-person');
    const page = await teamMember();
    await openConversation(page, 'first-person');
    const form = page.getByRole('form', { name: 'Reply as the team' });
    await form.getByLabel('Your name').fill('Ada');
    await form.getByLabel('Reply').fill('Your parcel left on Monday.');

    // A glance at the other person: their form has no reply typed, and Ada's name.
    await switchTo(page, 'second-person');
    expect(await form.getByLabel('Reply').inputValue()).toBe('');
    expect(await form.getByLabel('Your name').inputValue()).toBe('Ada');
    await form.getByLabel('Reply').fill('Hello, how can I help?');
    await form.getByRole('button', { name: 'Send reply' }).click();
    await page.getByRole('log', { name: 'Transcript' }).getByText('Hello, how can I help?').waitFor();

    // Back to the first: the reply meant for them is still there, and goes to them alone.
    await switchTo(page, 'first-person');
    expect(await form.getByLabel('Reply').inputValue()).toBe('Your parcel left on Monday.');
    await form.getByRole('button', { name: 'Send reply' }).click();
    await page.getByRole('log', { name: 'Transcript' }).getByText('Your parcel left on Monday.').waitFor();
    expect(await teamRepliesIn('first-person')).toEqual([{ name: 'Ada', content: 'Your parcel left on Monday.' }]);
    expect(await teamRepliesIn('second-person')).toEqual([{ name: 'Ada', content: 'Hello, how can I help?' }]);
    await page.context().close();
  });
});

describe('two team members opening the same person', () => {
  it('sends the reply of the one who did not see the other take it only once they know', async () => {
    await askForPerson('shared-person');
    const [ada, bo] = await Promise.all([teamMember(), teamMember()]);
    await Promise.all([openConversation(ada, 'shared-person'), openConversation(bo, 'shared-person')]);
    const formOf = (page: Page) => page.getByRole('form', { name: 'Reply as the team' });
    // Bo's transcript is not read again until he has sent: he still sees the person waiting.
    let reread!: () => void;
    const rereading = new Promise<void>((resolve) => (reread = resolve));
    await bo.route(/\/get-conversations/, async (route) => {
      await rereading;
      await route.continue();
    });
    await formOf(bo).getByLabel('Your name').fill('Bo');
    await formOf(bo).getByLabel('Reply').fill('Hi, Bo here. What happened?');

    await formOf(ada).getByLabel('Your name').fill('Ada');
    await formOf(ada).getByLabel('Reply').fill('Hi, Ada here.');
    await formOf(ada).getByRole('button', { name: 'Send reply' }).click();
    await ada.getByText('handoff: with the team (Ada)').first().waitFor();

    await formOf(bo).getByRole('button', { name: 'Send reply' }).click();
    const refusal = bo.getByRole('alert').filter({ hasText: 'Ada took this conversation a moment ago, so your reply was not sent.' });
    await refusal.or(bo.getByRole('log', { name: 'Transcript' }).getByText('Hi, Bo here.')).waitFor();
    reread();
    expect(await teamRepliesIn('shared-person')).toEqual([{ name: 'Ada', content: 'Hi, Ada here.' }]);
    expect(await refusal.count()).toBe(1);
    expect(await formOf(bo).getByLabel('Reply').inputValue()).toBe('Hi, Bo here. What happened?');

    // Now that Bo knows Ada has the person, he may answer alongside her.
    await formOf(bo).getByText('Ada is answering this person: your reply reaches them too, under your name.').waitFor();
    await formOf(bo).getByRole('button', { name: 'Send reply' }).click();
    await bo.getByRole('log', { name: 'Transcript' }).getByText('Hi, Bo here. What happened?').waitFor();
    expect(await teamRepliesIn('shared-person')).toEqual([
      { name: 'Ada', content: 'Hi, Ada here.' },
      { name: 'Bo', content: 'Hi, Bo here. What happened?' },
    ]);
    await Promise.all([ada.context().close(), bo.context().close()]);
  });
});

describe('the open handoffs', () => {
  it('lists the people waiting for the team first, longest waiting first, with when they asked', async () => {
    await askForPerson('being-helped');
    await api(`/chatbots/${chatbotId}/conversations/being-helped/handoff/take`, { name: 'Ada' });
    // A long chat with the chatbot before asking: the conversation began before the next one's.
    await api('/chat', { chatbotId, conversationId: 'chatted-first', messages: [{ role: 'user', content: 'When do you ship?' }] });
    await api('/chat', {
      chatbotId,
      conversationId: 'chatted-first',
      messages: [
        { role: 'user', content: 'When do you ship?' },
        { role: 'assistant', content: 'Within two days.' },
        { role: 'user', content: 'Can I talk to a person?' },
      ],
    });
    await askForPerson('asked-later');
    const page = await teamMember();
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity`);
    const items = page.getByRole('list', { name: 'Open handoffs' }).getByRole('listitem');
    await items.first().waitFor();
    const listed = await items.locator('a').evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).searchParams.get('conversation')));
    expect(listed.filter((id) => ['being-helped', 'chatted-first', 'asked-later'].includes(id ?? ''))).toEqual(['chatted-first', 'asked-later', 'being-helped']);
    expect(await items.filter({ has: page.locator('a[href$="conversation=chatted-first"]') }).textContent()).toMatch(/handoff: waiting for the team, asked \S/);
    await page.context().close();
  });

  it('names each person by what they said last, as many began alike', async () => {
    const wrote = async (conversationId: string, latest: string) => {
      await askForPerson(conversationId);
      const turns = [
        { role: 'user', content: 'Can I talk to a person?' },
        { role: 'assistant', content: 'I am asking someone from the team to join.' },
        { role: 'user', content: latest },
      ];
      await api('/chat', { chatbotId, conversationId, messages: turns });
    };
    await wrote('late-parcel', 'My order 1042 is late');
    await wrote('charged-twice', 'I was charged twice for order 1043');
    // The widget's button, pressed last (here in Spanish), names nobody: what they typed before it does.
    await wrote('lugo', '¿Enviáis a Lugo?');
    await api('/chat', { chatbotId, conversationId: 'lugo', messages: [{ role: 'user', content: PERSON_ASKED.es }] });
    const page = await teamMember();
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity`);
    const handoffs = page.getByRole('list', { name: 'Open handoffs' });
    await handoffs.getByRole('link', { name: 'My order 1042 is late' }).click();
    await page.waitForURL(/conversation=late-parcel$/);
    expect(await handoffs.getByRole('link', { name: 'I was charged twice for order 1043' }).getAttribute('href')).toMatch(/conversation=charged-twice$/);
    expect(await handoffs.getByRole('link', { name: '¿Enviáis a Lugo?' }).getAttribute('href')).toMatch(/conversation=lugo$/);
    // The list of all conversations still names each by how it began.
    expect(await page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: 'Can I talk to a person?' }).count()).toBeGreaterThanOrEqual(2);
    await page.context().close();
  });

  it('keeps a keyboard user in the transcript once its reply form goes with the handoff', async () => {
    await askForPerson('handed-back');
    const page = await teamMember();
    await openConversation(page, 'handed-back');
    const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
    await page.getByRole('button', { name: 'Hand back to the chatbot' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('form', { name: 'Reply as the team' }).waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('transcript-title');

    // Closed elsewhere while a reply is being typed: the focus goes from the reply to the transcript too.
    await askForPerson('closed-elsewhere');
    await openConversation(page, 'closed-elsewhere');
    await page.getByRole('textbox', { name: 'Reply' }).fill('One moment, please');
    await api(`/chatbots/${chatbotId}/conversations/closed-elsewhere/handoff/resolve`);
    await page.getByRole('form', { name: 'Reply as the team' }).waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('transcript-title');
    await page.context().close();
  });
});
