import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addQaSource, addTextSource, correctQaAnswer, deleteSource, findSource, refreshSource, replaceApiText, trainFromSources, updateSource } from '../../src/domain/sources.js';
import { apiTextSource, INSERTED_REVISION, type Account, type Chatbot, type Store } from '../../src/store/port.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { storeTargets } from '../support/stores.js';

// Edits of one source at once: each keeps what it does not change; training meanwhile trains the
// text as it stands. Each source's text is chunked once: later trainings take its chunks from the
// material.

describe.each(storeTargets.filter((target) => target.available))('$name store: source edits at once', (target) => {
  let store: Store;
  let owner: Account;
  let bot: Chatbot;

  beforeEach(async () => {
    store = await target.open();
    owner = await seedAccount(store);
    bot = await seedChatbot(store, owner);
  });
  afterEach(async () => {
    await store.close();
  });

  /** The store, counting the source texts training reads back to chunk them. */
  const countingReads = () => {
    const reads: string[] = [];
    const sources = { ...store.sources, texts: (chatbotId: string, id: string) => (reads.push(id), store.sources.texts(chatbotId, id)) };
    return { counting: { ...store, sources }, reads };
  };
  const trainedTexts = async () => (await store.training.material(bot.id)).chunks.map((chunk) => chunk.text);

  it('chunks a changed source again and takes the others’ chunks from the material, a deleted source gone', async () => {
    const hours = await addTextSource(store, owner, bot.id, { title: 'Hours', text: 'We open at nine.' });
    const dogs = await addQaSource(store, owner, bot.id, { question: 'Dogs?', answer: 'Yes, on a lead.' });
    const { counting, reads } = countingReads();
    await trainFromSources(counting, bot.id);
    expect(reads).toEqual([]);
    await updateSource(counting, owner, bot.id, hours.id, { text: 'We open at ten.' });
    expect(reads).toEqual([hours.id]);
    expect(await trainedTexts()).toEqual(['We open at ten.', 'Dogs?\nYes, on a lead.']);
    await deleteSource(counting, owner, bot.id, hours.id);
    expect(reads).toEqual([hours.id]);
    expect(await trainedTexts()).toEqual(['Dogs?\nYes, on a lead.']);
    expect((await store.sources.trainedSources(bot.id)).map((trained) => trained.id)).toEqual([dogs.id]);
  });

  it('trains a file being read again with its last reading, until it is read', async () => {
    const at = new Date();
    const file = { id: 'guide', chatbotId: bot.id, type: 'file' as const, title: 'guide.txt', status: 'ready' as const, error: null, chars: 16, createdAt: at, updatedAt: at };
    await store.sources.insert([{ ...file, text: 'We open at nine.' }]);
    await trainFromSources(store, bot.id);
    const { counting, reads } = countingReads();
    expect(await refreshSource(counting, owner, bot.id, file.id)).toMatchObject({ status: 'queued' });
    await trainFromSources(counting, bot.id);
    expect(reads).toEqual([]);
    expect(await trainedTexts()).toEqual(['We open at nine.']);
    await store.sources.claimNext({ now: new Date(), claimedBy: 'job', leaseUntil: new Date(Date.now() + 60_000) });
    await store.sources.settle(file.id, 'job', { status: 'ready', text: 'We open at ten.', chars: 15, updatedAt: new Date() });
    await trainFromSources(counting, bot.id);
    expect(reads).toEqual([file.id]);
    expect(await trainedTexts()).toEqual(['We open at ten.']);
  });

  it('keeps both of two Q&A edits, one of the question and one of the answer', async () => {
    const qa = await addQaSource(store, owner, bot.id, { question: 'Do you bake gluten-free bread?', answer: 'Yes, every Friday.' });
    await Promise.all([
      updateSource(store, owner, bot.id, qa.id, { question: 'Is there gluten-free bread?' }),
      updateSource(store, owner, bot.id, qa.id, { answer: 'Yes, on Tuesdays.' }),
    ]);
    const { source, text } = await findSource(store, owner, bot.id, qa.id);
    expect(source).toMatchObject({ question: 'Is there gluten-free bread?', answer: 'Yes, on Tuesdays.' });
    expect(text).toBe('Is there gluten-free bread?\nYes, on Tuesdays.');
  });

  it('makes one pair of racing corrections of a new question, holding one of their answers, and trains it alone', async () => {
    const answers = Array.from({ length: 6 }, (_, k) => `Yes, on lead number ${k}.`);
    await Promise.all(answers.map((answer) => correctQaAnswer(store, owner, bot.id, { question: 'Dogs?', answer })));
    const [pair, ...others] = await store.sources.list(bot.id);
    expect(others).toEqual([]);
    expect(pair).toMatchObject({ type: 'qa', question: 'Dogs?' });
    expect(answers).toContain(pair?.answer);
    await trainFromSources(store, bot.id);
    expect(await trainedTexts()).toEqual([`Dogs?\n${pair?.answer}`]);
  });

  it('makes one pair of racing corrections of a new question on hubs sharing the database', async () => {
    const database = target.shared();
    const hubs = [await database.open(), await database.open()];
    try {
      const [first] = hubs as [Store];
      const account = await seedAccount(first);
      const shared = await seedChatbot(first, account);
      const answers = Array.from({ length: 6 }, (_, k) => `Yes, on lead number ${k}.`);
      await Promise.all(answers.map((answer, k) => correctQaAnswer(hubs[k % 2] as Store, account, shared.id, { question: 'Dogs?', answer })));
      for (const hub of hubs) {
        const [pair, ...others] = await hub.sources.list(shared.id);
        expect(others).toEqual([]);
        expect(answers).toContain(pair?.answer);
      }
    } finally {
      await Promise.all(hubs.map((hub) => hub.close()));
      database.remove();
    }
  });

  it('leaves one pair of a corrected question, the oldest, holding the correction: the others are removed from the material', async () => {
    // A millisecond apart at least: sources of one millisecond are ordered by their random ids.
    const later = () => new Promise((resolve) => setTimeout(resolve, 2));
    const oldest = await addQaSource(store, owner, bot.id, { question: 'Dogs?', answer: 'Yes.' });
    await later();
    await addQaSource(store, owner, bot.id, { question: 'Cats?', answer: 'No.' });
    await later();
    await addQaSource(store, owner, bot.id, { question: 'Dogs?', answer: 'Never.' });
    expect(await correctQaAnswer(store, owner, bot.id, { question: 'Dogs?', answer: 'Yes, on a lead.' })).toMatchObject({ id: oldest.id, answer: 'Yes, on a lead.' });
    expect((await store.sources.list(bot.id)).map(({ question, answer }) => [question, answer])).toEqual([
      ['Dogs?', 'Yes, on a lead.'],
      ['Cats?', 'No.'],
    ]);
    expect(await trainedTexts()).toEqual(['Dogs?\nYes, on a lead.', 'Cats?\nNo.']);
  });

  it('trains a text changed since it was chunked ahead from the text as changed', async () => {
    const added = await addTextSource(store, owner, bot.id, { title: 'Hours', text: 'We open at nine.' });
    await store.sources.update(bot.id, added.id, { text: 'We open at ten.', chars: 15, updatedAt: new Date() });
    const ahead = [{ text: 'We open at nine.', source: { id: added.id, title: 'Hours', type: 'text' as const } }];
    await trainFromSources(store, bot.id, { id: added.id, revision: INSERTED_REVISION, chunks: Promise.resolve({ chunksId: 'nine', chunks: ahead }) });
    expect((await store.training.material(bot.id)).chunks.map((chunk) => chunk.text)).toEqual(['We open at ten.']);
  });

  it('trains an API text from its chunks made while it was stored, reading no text back, new or replaced', async () => {
    let readBack = 0;
    const counting = { ...store, sources: { ...store.sources, texts: (...args: Parameters<Store['sources']['texts']>) => ((readBack += 1), store.sources.texts(...args)) } };
    await replaceApiText(counting, bot.id, 'We open at nine.');
    await replaceApiText(counting, bot.id, 'We open at ten.');
    expect(readBack).toBe(0);
    expect((await store.training.material(bot.id)).chunks.map((chunk) => chunk.text)).toEqual(['We open at ten.']);
  });

  it('trains an API text another put replaced after it was chunked ahead from the text as replaced', async () => {
    await replaceApiText(store, bot.id, 'We open at nine.');
    // Another request's put lands between this one's and its training.
    const overtaken: Store['sources']['put'] = async (...args) => {
      const stored = await store.sources.put(...args);
      await store.sources.put(apiTextSource(bot.id, 'We close at five.', new Date()));
      return stored;
    };
    await replaceApiText({ ...store, sources: { ...store.sources, put: overtaken } }, bot.id, 'We open at ten.');
    expect((await store.training.material(bot.id)).chunks.map((chunk) => chunk.text)).toEqual(['We close at five.']);
  });

  it('leaves no text of an edit refused over the character limit in the material, when the store undid it after a training took it in', async () => {
    const added = await addTextSource(store, owner, bot.id, { title: 'Hours', text: 'We open at nine.' });
    // MongoDB's refusal after the write landed, in one order: the write stands for a moment, a
    // training (another request's) takes it in, and the write is undone.
    const refusedAfterLanding: Store['sources']['update'] = async (chatbotId, id, change) => {
      const before = await store.sources.find(chatbotId, id);
      const text = (await store.sources.texts(chatbotId, id)).map((part) => part.text).join('');
      await store.sources.update(chatbotId, id, change);
      await trainFromSources(store, chatbotId);
      await store.sources.update(chatbotId, id, { text, chars: before?.chars, updatedAt: new Date() });
      return { wouldHold: 1_000, undone: true };
    };
    const undoing = { ...store, sources: { ...store.sources, update: refusedAfterLanding } };
    const limits = { maxCharsPerChatbot: 100, maxFileBytes: 1_024 };
    await expect(updateSource(undoing, owner, bot.id, added.id, { text: 'We never open.' }, limits)).rejects.toMatchObject({ kind: 'denied' });
    expect((await store.training.material(bot.id)).chunks.map((chunk) => chunk.text)).toEqual(['We open at nine.']);
  });
});
