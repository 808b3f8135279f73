import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createChatbotViaApi } from '../support/http.js';
import { expectAccessible, newPage, signIn, startConsole, type ConsoleRun } from './console.js';

// Erasing one person's conversation or lead from Activity (a GDPR erasure request): asked first,
// then gone from the console and from the API.

let run: ConsoleRun;
let page: Page;
let chatbotId: string;

const api = (method: string, path: string, body?: unknown) => call(method, `${run.app.baseUrl}${path}`, run.app.apiKey, body);
const conversationIds = async () => {
  const { body } = await api('GET', `/get-conversations?chatbotId=${chatbotId}`);
  return (body as { data: { id: string }[] }).data.map((conversation) => conversation.id).sort();
};
const leadEmails = async () => {
  const { body } = await api('GET', `/get-leads?chatbotId=${chatbotId}&size=100`);
  return (body as { collectedCustomers: { email: string }[] }).collectedCustomers.map((lead) => lead.email).sort();
};

beforeAll(async () => {
  run = await startConsole();
  chatbotId = await createChatbotViaApi(run.app, 'Harbor Lights', 'Harbor Lights Bakery opens at seven in the morning on weekdays.');
  await api('POST', '/chat', { chatbotId, conversationId: 'ada-1', messages: [{ role: 'user', content: 'I am Ada: when do you open?' }] });
  await api('POST', '/chat', { chatbotId, conversationId: 'bo-1', messages: [{ role: 'user', content: 'Do you bake rye bread?' }] });
  await api('POST', `/chatbots/${chatbotId}/leads`, { email: 'ada@example.com', conversationId: 'ada-1' });
  await api('POST', `/chatbots/${chatbotId}/leads`, { email: 'bo@example.com' });
  page = await newPage(run);
  await signIn(page, run.app);
});
afterAll(async () => {
  await run.close();
});

describe('activity', () => {
  it('deletes a conversation once asked, with the lead given in it, and closes it', async () => {
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity/conversations`);
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('link', { name: 'I am Ada: when do you open?' }).click();
    const transcript = page.getByRole('region', { name: /^Conversation of/ });
    await transcript.getByRole('button', { name: /^Delete conversation/ }).click();
    // Nothing is deleted until the question is answered.
    expect(await conversationIds()).toEqual(['ada-1', 'bo-1']);
    await expectAccessible(page);
    await transcript.getByRole('button', { name: /^Yes, delete conversation/ }).click();
    await page.getByText('Choose a conversation to read it.').waitFor();
    await expect.poll(() => list.getByRole('link').allTextContents()).toEqual(['Do you bake rye bread?']);
    expect(await conversationIds()).toEqual(['bo-1']);
    expect(await leadEmails()).toEqual(['bo@example.com']);
  });

  it('keeps the conversation when the question is taken back', async () => {
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('link', { name: 'Do you bake rye bread?' }).click();
    const transcript = page.getByRole('region', { name: /^Conversation of/ });
    await transcript.getByRole('button', { name: /^Delete conversation/ }).click();
    await transcript.getByRole('button', { name: 'Keep it' }).click();
    await transcript.getByRole('button', { name: /^Delete conversation/ }).waitFor();
    expect(await conversationIds()).toEqual(['bo-1']);
  });

  it('deletes a lead once asked, beyond the newest page too', async () => {
    // 120 more leads: the one deleted is on the second page, which the list does not read again.
    for (let n = 0; n < 120; n += 1) await api('POST', `/chatbots/${chatbotId}/leads`, { email: `guest${n}@example.com` });
    await page.goto(`${run.app.origin}/console/chatbots/${chatbotId}/activity/leads`);
    await page.getByRole('cell', { name: 'bo@example.com', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete lead bo@example.com' }).click();
    await page.getByRole('button', { name: 'Yes, delete lead “bo@example.com”' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'bo@example.com', exact: true }).count()).toBe(0);
    expect(await page.getByRole('cell', { name: 'guest0@example.com', exact: true }).count()).toBe(1);
    expect(await leadEmails()).not.toContain('bo@example.com');
    await expectAccessible(page);
  });
});
