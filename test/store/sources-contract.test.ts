import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiTextSource, INSERTED_REVISION, type Account, type Chatbot, type NewSource, type PutSource, type Source, type Store } from '../../src/store/port.js';
import { TEXT_PART_CHARS } from '../../src/store/text-parts.js';
import { finishOrder, startBystander } from '../support/event-loop.js';
import { seedAccount, seedChatbot } from '../support/seed.js';
import { sourceReads } from '../support/source-reads.js';
import { storeTargets } from '../support/stores.js';

// Knowledge sources: one behaviour for every adapter that can be had here.

describe.each(storeTargets.filter((target) => target.available))('$name store: sources', (target) => {
  let store: Store;
  let owner: Account;
  let bot: Chatbot;
  let made = 0;
  /** The other request sent while a long write or read runs. */
  let bystander: Awaited<ReturnType<typeof startBystander>>;
  beforeAll(async () => {
    bystander = await startBystander();
  });
  afterAll(async () => {
    await bystander.close();
  });

  const at = (second: number) => new Date(Date.UTC(2026, 10, 1, 12, 0, second));
  const source = (overrides: Partial<NewSource> = {}): NewSource => {
    made += 1;
    return {
      id: `source-${made}`,
      chatbotId: bot.id,
      type: 'text',
      title: `Text ${made}`,
      status: 'ready',
      error: null,
      chars: 5,
      createdAt: at(made),
      updatedAt: at(made),
      text: 'Hello',
      ...overrides,
    };
  };
  const stored = ({ text: _text, file: _file, ...rest }: NewSource): Source => rest;
  /** Whether the store holds parts no source needs: the repair, with no grace, removes (and counts) them. */
  const debrisLeft = async () => (await store.repair({ settleMs: 0, chunkGraceMs: 0 })).orphans;

  beforeEach(async () => {
    store = await target.open();
    owner = await seedAccount(store);
    bot = await seedChatbot(store, owner);
  });
  afterEach(async () => {
    await store.close();
  });

  it('updates only while the question and answer are the ones expected, and else changes nothing', async () => {
    const qa = source({ type: 'qa', title: 'When?', question: 'When?', answer: 'At nine.', text: 'When?\nAt nine.' });
    await store.sources.insert([qa]);
    const edit = (answer: string) => ({ answer, text: `When?\n${answer}`, updatedAt: at(50) });
    expect(await store.sources.update(bot.id, qa.id, edit('At ten.'), { question: 'When?', answer: 'At eight.' })).toBeUndefined();
    expect(await store.sources.find(bot.id, qa.id)).toEqual(stored(qa));
    expect(await store.sources.text(bot.id, qa.id, 100)).toBe('When?\nAt nine.');
    const updated = await store.sources.update(bot.id, qa.id, edit('At ten.'), { question: 'When?', answer: 'At nine.' });
    expect(updated).toMatchObject({ question: 'When?', answer: 'At ten.' });
    expect(await store.sources.text(bot.id, qa.id, 100)).toBe('When?\nAt ten.');
  });

  it('round-trips every type with its own fields, oldest first', async () => {
    const text = source();
    const qa = source({ type: 'qa', title: 'When?', question: 'When?', answer: 'At nine.', text: 'When?\nAt nine.' });
    const file = source({
      type: 'file',
      status: 'queued',
      chars: 0,
      title: 'guide.pdf',
      filename: 'guide.pdf',
      contentType: 'application/pdf',
      bytes: 3,
      text: '',
      file: Buffer.from([1, 2, 3]),
    });
    const website = source({ type: 'website', status: 'failed', error: 'The site could not be reached.', url: 'https://example.com/', maxPages: 50, pages: { done: 0, failed: 1, total: 1 } });
    await store.sources.insert([website, text]);
    await store.sources.insert([qa, file]);
    expect(await store.sources.list(bot.id)).toEqual([text, qa, file, website].sort((a, b) => +a.createdAt - +b.createdAt).map(stored));
    expect(await store.sources.find(bot.id, qa.id)).toEqual(stored(qa));
    expect(await store.sources.file(bot.id, file.id)).toEqual(Buffer.from([1, 2, 3]));
    expect(await store.sources.text(bot.id, qa.id, 7)).toBe('When?\nA');
  });

  it('inserts a batch all or none', async () => {
    const first = source();
    await store.sources.insert([first]);
    await expect(store.sources.insert([source(), { ...first }])).rejects.toThrow();
    expect((await store.sources.list(bot.id)).map((item) => item.id)).toEqual([first.id]);
  });

  it('inserts within a character limit, each new source counted as at least one, and past it stores nothing', async () => {
    await store.sources.insert([source({ chars: 5 })]);
    const queued = source({ type: 'file', status: 'queued', chars: 0, text: undefined, file: Buffer.from('# Notes') });
    expect(await store.sources.insert([source({ chars: 5 }), queued], 10)).toEqual({ wouldHold: 5 + 5 + 1 });
    expect(await store.sources.list(bot.id)).toHaveLength(1);
    expect(await debrisLeft()).toBe(0);
    expect(await store.sources.insert([queued], 6)).toBeUndefined();
    expect(await store.sources.totalChars(bot.id)).toBe(5);
    // Another chatbot's sources count against its own limit alone.
    expect(await store.sources.insert([source({ chatbotId: (await seedChatbot(store, owner)).id, chars: 6 })], 6)).toBeUndefined();
  });

  it('never lets concurrent inserts pass the character limit together', async () => {
    // Texts of two parts, so each insert's write yields to the others.
    const text = 'x'.repeat(TEXT_PART_CHARS + 10);
    const limit = 2 * text.length + text.length / 2;
    const racing = Array.from({ length: 4 }, () => source({ text, chars: text.length }));
    const refusals = await Promise.all(racing.map((racer) => store.sources.insert([racer], limit)));
    const stored = await store.sources.list(bot.id);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.length).toBe(refusals.filter((refusal) => refusal === undefined).length);
    expect(await store.sources.totalChars(bot.id)).toBeLessThanOrEqual(limit);
    for (const refusal of refusals) if (refusal) expect(refusal.wouldHold).toBeGreaterThan(limit);
    expect(await debrisLeft()).toBe(0);
  });

  it('inserts a website once: racing adds of one URL store one source, and the others and any later add answer it', async () => {
    const url = 'https://help.example.com/';
    const website = (overrides: Partial<NewSource> = {}) =>
      source({ type: 'website', title: url, url, status: 'queued', chars: 0, text: undefined, maxPages: 50, pages: { done: 0, failed: 0, total: 0 }, ...overrides });
    const answers = await Promise.all(Array.from({ length: 4 }, () => store.sources.insertWebsite(website(), 1_000)));
    const [kept, ...others] = await store.sources.list(bot.id);
    expect(others).toEqual([]);
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(1);
    for (const answer of answers) if (answer) expect(answer).toEqual(kept);
    // The site is answered before the limit is checked; another site is a new source, within it.
    expect(await store.sources.insertWebsite(website(), 0)).toEqual(kept);
    expect(await store.sources.insertWebsite(website({ url: `${url}docs`, title: `${url}docs` }), 0)).toEqual({ wouldHold: 1 });
    // Another chatbot's source of the site is its own, and a text titled with the URL is no website.
    expect(await store.sources.insertWebsite(website({ chatbotId: (await seedChatbot(store, owner)).id }), 1_000)).toBeUndefined();
    const text = source({ title: url });
    await store.sources.insert([text]);
    const docs = website({ url: `${url}docs`, title: `${url}docs` });
    expect(await store.sources.insertWebsite(docs, 1_000)).toBeUndefined();
    expect((await store.sources.list(bot.id)).map(({ id }) => id)).toEqual([kept?.id, text.id, docs.id]);
    expect(await debrisLeft()).toBe(0);
  });

  describe('corrections of a question', () => {
    const pair = (answer: string, overrides: Partial<NewSource> = {}) =>
      source({ type: 'qa', title: 'Dogs?', question: 'Dogs?', answer, chars: `Dogs?\n${answer}`.length, text: `Dogs?\n${answer}`, ...overrides });
    const pairsAsked = async (question = 'Dogs?') => (await store.sources.list(bot.id)).filter((listed) => listed.type === 'qa' && listed.question === question);

    it('store one pair when they race on a new question, holding one of their answers', async () => {
      const answers = Array.from({ length: 8 }, (_, k) => `Yes, answer ${k}.`);
      const corrected = await Promise.all(answers.map((answer) => store.sources.correctQa(pair(answer), 1_000)));
      const [kept, ...others] = await pairsAsked();
      expect(others).toEqual([]);
      expect(answers).toContain(kept?.answer);
      expect(await store.sources.text(bot.id, kept?.id ?? '', 100)).toBe(`Dogs?\n${kept?.answer}`);
      for (const answer of corrected) expect(answer).toMatchObject({ id: kept?.id, question: 'Dogs?' });
      expect(await debrisLeft()).toBe(0);
    });

    it('leave one pair of the question: the oldest takes the answer, the others are deleted, other sources stay', async () => {
      const oldest = pair('Yes.');
      const text = source();
      const cats = pair('No.', { title: 'Cats?', question: 'Cats?', text: 'Cats?\nNo.' });
      const twins = [pair('Never.'), pair('Sometimes.')];
      await store.sources.insert([oldest, text, cats, ...twins]);
      const correction = pair('Yes, on a lead.', { createdAt: at(90), updatedAt: at(90) });
      expect(await store.sources.correctQa(correction, 1_000)).toEqual({ ...stored(oldest), answer: 'Yes, on a lead.', chars: correction.chars, updatedAt: at(90) });
      expect((await store.sources.list(bot.id)).map(({ id }) => id)).toEqual([oldest.id, text.id, cats.id]);
      expect(await store.sources.text(bot.id, oldest.id, 100)).toBe('Dogs?\nYes, on a lead.');
      for (const twin of twins) expect(await store.sources.text(bot.id, twin.id, 100)).toBe('');
      expect(await debrisLeft()).toBe(0);
    });

    it('take a wording of the question differing in case, spaces and closing marks for the same question, and no other', async () => {
      const oldest = pair('Yes.');
      const other = pair('On a lead.', { title: 'Dogs on the beach?', question: 'Dogs on the beach?', text: 'Dogs on the beach?\nOn a lead.' });
      const twin = pair('No.', { title: ' DOGS ?!', question: ' DOGS ?!', text: ' DOGS ?!\nNo.' });
      await store.sources.insert([oldest, other, twin]);
      const correction = pair('Yes, small ones.', { title: 'dogs', question: 'dogs', text: 'dogs\nYes, small ones.' });
      expect(await store.sources.correctQa(correction, 1_000)).toMatchObject({ id: oldest.id, question: 'dogs', answer: 'Yes, small ones.' });
      expect((await store.sources.list(bot.id)).map(({ id }) => id)).toEqual([oldest.id, other.id]);
      expect(await debrisLeft()).toBe(0);
    });

    it('count against the character limit without the pairs of the question, and past it change nothing', async () => {
      const oldest = pair('Yes.');
      const twin = pair('No.');
      await store.sources.insert([oldest, twin, source({ chars: 5 })]);
      const correction = pair('Yes, on a lead.');
      expect(await store.sources.correctQa(correction, 5 + correction.chars - 1)).toEqual({ wouldHold: 5 + correction.chars });
      expect(await store.sources.list(bot.id)).toHaveLength(3);
      expect(await store.sources.text(bot.id, oldest.id, 100)).toBe('Dogs?\nYes.');
      expect(await store.sources.correctQa(correction, 5 + correction.chars)).toMatchObject({ id: oldest.id, answer: 'Yes, on a lead.' });
      expect(await store.sources.totalChars(bot.id)).toBe(5 + correction.chars);
      expect(await debrisLeft()).toBe(0);
    });
  });

  it('answers a website added at another of the spellings given with the oldest source at any of them', async () => {
    const website = (url: string) =>
      source({ type: 'website', title: url, url, status: 'queued', chars: 0, text: undefined, maxPages: 50, pages: { done: 0, failed: 0, total: 0 } });
    const apex = website('https://example.com/');
    const www = website('https://www.example.com/');
    expect(await store.sources.insertWebsite(apex, 1_000)).toBeUndefined();
    // Without the spellings, only the URL itself is the site.
    expect(await store.sources.insertWebsite(www, 1_000)).toBeUndefined();
    const [kept] = await store.sources.list(bot.id);
    const spellings = ['http://example.com/', 'https://example.com/', 'https://www.example.com/'];
    const racing = Array.from({ length: 3 }, () => store.sources.insertWebsite(website('http://www.example.com/'), 1_000, spellings));
    for (const answer of await Promise.all(racing)) expect(answer).toEqual(kept);
    expect(await store.sources.insertWebsite(website('https://www.example.com/docs'), 1_000, ['https://www.example.com/docs'])).toBeUndefined();
    expect((await store.sources.list(bot.id)).map(({ url }) => url)).toEqual(['https://example.com/', 'https://www.example.com/', 'https://www.example.com/docs']);
    expect(await debrisLeft()).toBe(0);
  });

  it('gives a crawled page’s content to one page: racing claims answer its holder, which keeps it until the pages are cleared', async () => {
    const website = source({ type: 'website', title: 'https://lamps.example/', url: 'https://lamps.example/', status: 'processing', chars: 0, text: undefined });
    await store.sources.insert([website]);
    const urls = ['/', '/index.html', '/home', '/returns'].map((path) => `https://lamps.example${path}`);
    await store.sources.planPages(website.id, urls);
    const [home, ...copies] = urls.slice(0, 3) as [string, ...string[]];
    const answers = await Promise.all([home, ...copies].map((url) => store.sources.claimPageContent(website.id, url, 'hash-of-home')));
    const holder = urls.slice(0, 3).find((_url, k) => answers[k] === undefined) as string;
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(1);
    expect(answers.filter((answer) => answer !== undefined)).toEqual([holder, holder]);
    // Its holder read again (a restart) keeps it; another content is another page's.
    expect(await store.sources.claimPageContent(website.id, holder, 'hash-of-home')).toBeUndefined();
    expect(await store.sources.claimPageContent(website.id, urls[3] as string, 'hash-of-returns')).toBeUndefined();
    expect(await store.sources.claimPageContent(website.id, urls[3] as string, 'hash-of-home')).toBe(holder);
    await store.sources.clearPages(website.id);
    await store.sources.planPages(website.id, urls);
    expect(await store.sources.claimPageContent(website.id, urls[3] as string, 'hash-of-home')).toBeUndefined();
  });

  it('updates and puts within a character limit, the replaced source’s characters left out, and past it changes nothing', async () => {
    const other = source({ chars: 5 });
    const edited = source({ chars: 5 });
    await store.sources.insert([other, edited]);
    const text = (chars: number) => ({ text: 'y'.repeat(chars), chars, updatedAt: at(50) });
    expect(await store.sources.update(bot.id, edited.id, text(8), undefined, 12)).toEqual({ wouldHold: 5 + 8 });
    expect(await store.sources.find(bot.id, edited.id)).toEqual(stored(edited));
    expect(await store.sources.text(bot.id, edited.id, 100)).toBe('Hello');
    expect(await store.sources.update(bot.id, edited.id, text(7), undefined, 12)).toMatchObject({ chars: 7 });
    // A change that keeps the characters is not limited.
    expect(await store.sources.update(bot.id, edited.id, { title: 'Renamed', updatedAt: at(51) }, undefined, 1)).toMatchObject({ title: 'Renamed' });

    expect(await store.sources.put(apiTextSource(bot.id, 'z'.repeat(6), at(52)), 17)).toEqual({ wouldHold: 5 + 7 + 6 });
    expect(await store.sources.list(bot.id)).toHaveLength(2);
    await store.sources.put(apiTextSource(bot.id, 'abc', at(53)), 15);
    expect(await store.sources.put(apiTextSource(bot.id, 'abcdef', at(54)), 15)).toEqual({ wouldHold: 5 + 7 + 6 });
    expect(await store.sources.put(apiTextSource(bot.id, 'ABC', at(55)), 15)).toMatchObject({ source: { chars: 3, updatedAt: at(55) } });
    expect(await store.sources.text(bot.id, apiTextSource(bot.id, '', at(0)).id, 100)).toBe('ABC');
    expect(await store.sources.totalChars(bot.id)).toBe(15);
    expect(await debrisLeft()).toBe(0);
  });

  it('never lets concurrent updates and puts pass the character limit together', async () => {
    // Texts of two parts, so each write yields to the others.
    const text = 'x'.repeat(TEXT_PART_CHARS + 10);
    const limit = 2 * text.length + text.length / 2;
    const edited = Array.from({ length: 3 }, () => source({ text: 'x', chars: 1 }));
    await store.sources.insert(edited);
    const apiText = apiTextSource(bot.id, text, at(50));
    const refusals = await Promise.all([
      ...edited.map((one) => store.sources.update(bot.id, one.id, { text, chars: text.length, updatedAt: at(50) }, undefined, limit)),
      store.sources.put(apiText, limit),
    ]);
    const refused = refusals.filter((answer) => answer && 'wouldHold' in answer);
    expect(refused.length).toBeLessThan(refusals.length);
    for (const refusal of refused) expect((refusal as { wouldHold: number }).wouldHold).toBeGreaterThan(limit);
    expect(await store.sources.totalChars(bot.id)).toBeLessThanOrEqual(limit);
    // A refused edit left its source as it was.
    const long = (await store.sources.list(bot.id)).filter((one) => one.chars === text.length);
    expect(long).toHaveLength(refusals.length - refused.length);
    for (const one of edited.filter(({ id }) => !long.some((landed) => landed.id === id))) {
      expect(await store.sources.find(bot.id, one.id)).toEqual(stored(one));
      expect(await store.sources.text(bot.id, one.id, 10)).toBe('x');
    }
    expect(await debrisLeft()).toBe(0);
  });

  it('leaves a source as the edit that stood left it, or as it was, when racing edits of it are refused', async () => {
    // Edits of one source race inserts that fit beside the source as it is, not as edited: edits
    // that land before an insert are refused once they count it, and put back; never to what
    // another refused edit wrote, whose text is gone with it. Inserts of texts of two parts in
    // every other round, so that the writes yield to each other at other points.
    const chars = TEXT_PART_CHARS;
    for (let round = 0; round < 20; round += 1) {
      const edited = source({ text: 'x', chars: 1 });
      await store.sources.insert([edited]);
      const limit = (await store.sources.totalChars(bot.id)) + chars + 5;
      const answers = await Promise.all([
        ...Array.from({ length: 3 }, (_, k) => store.sources.update(bot.id, edited.id, { text: `edit ${k}`, chars, updatedAt: at(50) }, undefined, limit)),
        ...Array.from({ length: 2 }, () => store.sources.insert([source({ text: 'i'.repeat(round % 2 ? 1 : chars + 10), chars })], limit)),
      ]);
      expect(await store.sources.totalChars(bot.id)).toBeLessThanOrEqual(limit);
      const landed = answers.slice(0, 3).flatMap((answer, k) => (answer && !('wouldHold' in answer) ? [k] : []));
      const now = await store.sources.find(bot.id, edited.id);
      const nowText = await store.sources.text(bot.id, edited.id, 100);
      if (landed.length === 0) expect([now, nowText]).toEqual([stored(edited), 'x']);
      else expect(landed.map((k) => `edit ${k}`)).toContain(nowText);
      for (const one of await store.sources.list(bot.id)) await store.sources.delete(bot.id, one.id);
    }
    expect(await debrisLeft()).toBe(0);
  });

  it('shows another chatbot nothing of a source', async () => {
    const other = await seedChatbot(store, owner);
    const mine = source();
    await store.sources.insert([mine]);
    expect(await store.sources.find(other.id, mine.id)).toBeUndefined();
    expect(await store.sources.update(other.id, mine.id, { title: 'x', updatedAt: at(59) })).toBeUndefined();
    expect(await store.sources.delete(other.id, mine.id)).toBe(false);
    expect(await store.sources.text(other.id, mine.id, 100)).toBe('');
    expect(await store.sources.list(other.id)).toEqual([]);
    expect(await store.sources.find(bot.id, mine.id)).toEqual(stored(mine));
  });

  it('updates the fields given and keeps the rest', async () => {
    const qa = source({ type: 'qa', question: 'When?', answer: 'At nine.' });
    await store.sources.insert([qa]);
    const updated = await store.sources.update(bot.id, qa.id, { answer: 'At ten.', text: 'When?\nAt ten.', chars: 13, updatedAt: at(59) });
    expect(updated).toEqual({ ...stored(qa), answer: 'At ten.', chars: 13, updatedAt: at(59) });
    expect(await store.sources.text(bot.id, qa.id, 100)).toBe('When?\nAt ten.');
    const progressed = await store.sources.update(bot.id, qa.id, { status: 'failed', error: 'Broken.', pages: { done: 1, failed: 2, total: 3 }, updatedAt: at(59) });
    expect(progressed).toMatchObject({ status: 'failed', error: 'Broken.', pages: { done: 1, failed: 2, total: 3 }, answer: 'At ten.' });
  });

  it('puts a source in place of the one of the same id, keeping its creation time', async () => {
    const first = apiTextSource(bot.id, 'Old text.', at(1));
    await store.sources.put(first);
    const replaced = await store.sources.put(apiTextSource(bot.id, 'New text!', at(30)));
    expect(replaced).toEqual({ source: { ...stored(first), chars: 9, createdAt: at(1), updatedAt: at(30) }, revision: expect.any(Number) });
    expect(await store.sources.text(bot.id, first.id, 100)).toBe('New text!');
    expect(await store.sources.list(bot.id)).toHaveLength(1);
  });

  it('deletes a source with its text and file', async () => {
    const file = source({ type: 'file', file: Buffer.from('abc') });
    await store.sources.insert([file]);
    expect(await store.sources.delete(bot.id, file.id)).toBe(true);
    expect(await store.sources.delete(bot.id, file.id)).toBe(false);
    expect(await store.sources.find(bot.id, file.id)).toBeUndefined();
    expect(await store.sources.file(bot.id, file.id)).toBeUndefined();
  });

  it('counts the characters of the chatbot’s sources, leaving one out when asked', async () => {
    const a = source({ chars: 10 });
    const b = source({ chars: 32 });
    await store.sources.insert([a, b]);
    expect(await store.sources.totalChars(bot.id)).toBe(42);
    expect(await store.sources.totalChars(bot.id, a.id)).toBe(32);
    expect(await store.sources.totalChars((await seedChatbot(store, owner)).id)).toBe(0);
  });

  it('reads a source’s row twice for its text: with its type and text version, and after the parts to see that version held', async () => {
    const hours = source({ title: 'Hours', text: 'Open at 9.' });
    await store.sources.insert([hours]);
    let text: string | undefined;
    expect(await sourceReads(store.engine, async () => (text = await store.sources.text(bot.id, hours.id, 100)))).toBe(2);
    expect(text).toBe('Open at 9.');
    let texts: unknown;
    expect(await sourceReads(store.engine, async () => (texts = await store.sources.texts(bot.id, hours.id)))).toBe(2);
    expect(texts).toEqual([{ ref: { id: hours.id, title: 'Hours', type: 'text' }, text: 'Open at 9.' }]);
  });

  it('reads a source’s text naming its source', async () => {
    const text = source({ title: 'Hours', text: 'We open at nine.' });
    const qa = source({ type: 'qa', title: 'Dogs?', question: 'Dogs?', answer: 'Yes.', text: 'Dogs?\nYes.' });
    await store.sources.insert([qa, text]);
    expect(await store.sources.texts(bot.id, text.id)).toEqual([{ ref: { id: text.id, title: 'Hours', type: 'text' }, text: 'We open at nine.' }]);
    expect(await store.sources.texts(bot.id, qa.id)).toEqual([{ ref: { id: qa.id, title: 'Dogs?', type: 'qa' }, text: 'Dogs?\nYes.' }]);
    expect(await store.sources.texts((await seedChatbot(store, owner)).id, qa.id)).toEqual([]);
  });

  describe('a long text, kept in parts', () => {
    const ALL = Number.MAX_SAFE_INTEGER;
    /** About `chars` characters of numbered lines, so that a part out of place shows. */
    const lines = (chars: number, tag: string) => {
      const line = (i: number) => `${tag} line ${String(i).padStart(8, '0')}\n`;
      return Array.from({ length: Math.ceil(chars / line(0).length) }, (_, i) => line(i)).join('');
    };
    // A surrogate pair straddles the first part's end: it must not be cut in two.
    const LONG = `${'x'.repeat(TEXT_PART_CHARS - 1)}😀${lines(20 * 1024 * 1024, 'long')}`;
    const same = (read: string | undefined, expected: string) => read?.length === expected.length && read === expected;

    it('round-trips 20 MB exactly: whole, from the start, and across a part boundary through a surrogate pair', async () => {
      const long = source({ text: LONG, chars: LONG.length });
      await store.sources.insert([long]);
      expect(same((await store.sources.texts(bot.id, long.id))[0]?.text, LONG)).toBe(true);
      expect(same(await store.sources.text(bot.id, long.id, ALL), LONG)).toBe(true);
      expect(await store.sources.text(bot.id, long.id, 12)).toBe('xxxxxxxxxxxx');
      for (const limit of [TEXT_PART_CHARS - 1, TEXT_PART_CHARS + 1, 3 * TEXT_PART_CHARS + 17]) {
        expect(same(await store.sources.text(bot.id, long.id, limit), LONG.slice(0, limit))).toBe(true);
      }
      await store.sources.put({ ...apiTextSource(bot.id, LONG, at(1)) });
      expect(same(await store.training.sourceText(bot.id), LONG)).toBe(true);
      expect(await debrisLeft()).toBe(0);
    });

    it('replaces a text whole by update, put and settle, leaving no part of the old one', async () => {
      const long = source({ type: 'file', status: 'queued', text: LONG, chars: LONG.length });
      await store.sources.insert([long]);
      const shorter = lines(2.5 * TEXT_PART_CHARS, 'shorter');
      await store.sources.update(bot.id, long.id, { text: shorter, chars: shorter.length, updatedAt: at(30) });
      expect(same(await store.sources.text(bot.id, long.id, ALL), shorter)).toBe(true);
      await store.sources.claimNext({ now: at(31), claimedBy: 'p', leaseUntil: at(90) });
      await store.sources.settle(long.id, 'p', { status: 'ready', text: LONG, chars: LONG.length, updatedAt: at(32) });
      expect(same(await store.sources.text(bot.id, long.id, ALL), LONG)).toBe(true);
      const api = apiTextSource(bot.id, LONG, at(1));
      await store.sources.put(api);
      await store.sources.put({ ...api, text: 'Short now.', chars: 10 });
      expect(await store.training.sourceText(bot.id)).toBe('Short now.');
      await store.sources.update(bot.id, long.id, { text: '', chars: 0, updatedAt: at(33) });
      expect(await store.sources.text(bot.id, long.id, ALL)).toBe('');
      expect(await debrisLeft()).toBe(0);
    });

    it('shows readers during a write the old text or the new, never parts of both', async () => {
      const [before, after] = [lines(3.5 * TEXT_PART_CHARS, 'before'), lines(2.5 * TEXT_PART_CHARS, 'after')];
      const long = source({ text: before, chars: before.length });
      await store.sources.insert([long]);
      let done = false;
      const update = store.sources.update(bot.id, long.id, { text: after, chars: after.length, updatedAt: at(30) }).then(() => {
        done = true;
      });
      // Each read starts while the update is writing parts, making them current or deleting the old.
      const reads: string[] = [];
      while (!done) reads.push(await store.sources.text(bot.id, long.id, ALL));
      await update;
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every((read) => read === before || read === after)).toBe(true);
      expect(same(await store.sources.text(bot.id, long.id, ALL), after)).toBe(true);
    });

    it('leaves no source and no part when an insert or a put fails part-way', async () => {
      const first = source();
      await store.sources.insert([first]);
      const long = source({ text: LONG, chars: LONG.length });
      await expect(store.sources.insert([long, { ...first, text: LONG }])).rejects.toThrow();
      expect((await store.sources.list(bot.id)).map((item) => item.id)).toEqual([first.id]);
      const other = await seedChatbot(store, owner);
      await expect(store.sources.put({ ...first, chatbotId: other.id, text: LONG })).rejects.toThrow();
      expect(await store.sources.text(bot.id, first.id, ALL)).toBe('Hello');
      expect(await debrisLeft()).toBe(0);
    });

    it('deletes the parts with their source and with their chatbot', async () => {
      const [gone, kept] = [source({ text: LONG, chars: LONG.length }), source({ text: LONG, chars: LONG.length })];
      await store.sources.insert([gone, kept]);
      expect(await store.sources.delete(bot.id, gone.id)).toBe(true);
      expect(await store.sources.text(bot.id, gone.id, ALL)).toBe('');
      expect(await debrisLeft()).toBe(0);
      expect(same(await store.sources.text(bot.id, kept.id, ALL), LONG)).toBe(true);
      await store.chatbots.delete(owner.id, bot.id);
      expect(await debrisLeft()).toBe(0);
    });

    describe('while other requests are served', () => {
      // A request sent after a 20 MB write or read began is answered before it ends: the write or
      // read did not hold the event loop throughout.
      it('answers a request sent during a 20 MB insert, update or read before it finishes', async () => {
        const long = source({ text: LONG, chars: LONG.length });
        const during = (work: () => Promise<unknown>) => finishOrder(bystander.url, work);
        expect(await during(() => store.sources.insert([long]))).toEqual(['request', 'work']);
        expect(await during(() => store.sources.update(bot.id, long.id, { text: `${LONG}!`, updatedAt: at(30) }))).toEqual(['request', 'work']);
        expect(await during(() => store.sources.texts(bot.id, long.id))).toEqual(['request', 'work']);
      });
    });
  });

  describe('a large file, kept in parts', () => {
    /** `bytes` bytes in which every 4-byte word differs from its neighbours, so that a part out of place shows. */
    const bytes = (length: number, seed: number) => {
      const data = Buffer.alloc(length);
      for (let at = 0; at + 4 <= length; at += 4) data.writeUInt32LE((at * 2654435761 + seed) >>> 0, at);
      return data;
    };
    // Larger than a document holds, and not a whole number of parts.
    const BIG = bytes(20 * 1024 * 1024 + 13, 1);
    const fileSource = (file: Buffer, overrides: Partial<NewSource> = {}) =>
      source({ type: 'file', status: 'queued', chars: 0, text: '', filename: 'big.pdf', contentType: 'application/pdf', bytes: file.length, file, ...overrides });
    const same = (read: Buffer | undefined, expected: Buffer) => read !== undefined && read.equals(expected);

    it('round-trips 20 MB byte for byte, an empty file as empty, and a put replaces a file whole', async () => {
      const [big, empty] = [fileSource(BIG), fileSource(Buffer.alloc(0))];
      await store.sources.insert([big, empty]);
      expect(same(await store.sources.file(bot.id, big.id), BIG)).toBe(true);
      expect(await store.sources.file(bot.id, empty.id)).toEqual(Buffer.alloc(0));
      expect(await store.sources.file(bot.id, source().id)).toBeUndefined();
      const smaller = bytes(3 * 1024 * 1024 - 5, 2);
      await store.sources.put({ ...big, file: smaller, bytes: smaller.length });
      expect(same(await store.sources.file(bot.id, big.id), smaller)).toBe(true);
      await store.sources.put({ ...big, file: undefined, text: 'Read.', chars: 5, status: 'ready' });
      expect(same(await store.sources.file(bot.id, big.id), smaller)).toBe(true);
      expect(await debrisLeft()).toBe(0);
    });

    it('leaves no source and no part when an insert or a put fails part-way', async () => {
      const first = fileSource(Buffer.from('%PDF-1.7'));
      await store.sources.insert([first]);
      await expect(store.sources.insert([fileSource(BIG), { ...first, file: BIG }])).rejects.toThrow();
      expect((await store.sources.list(bot.id)).map((item) => item.id)).toEqual([first.id]);
      expect(await store.sources.file(bot.id, first.id)).toEqual(Buffer.from('%PDF-1.7'));
      const other = await seedChatbot(store, owner);
      await expect(store.sources.put({ ...first, chatbotId: other.id, file: BIG })).rejects.toThrow();
      expect(await store.sources.file(bot.id, first.id)).toEqual(Buffer.from('%PDF-1.7'));
      expect(await debrisLeft()).toBe(0);
    });

    it('deletes the parts with their source and with their chatbot', async () => {
      const [gone, kept] = [fileSource(BIG), fileSource(BIG)];
      await store.sources.insert([gone, kept]);
      expect(await store.sources.delete(bot.id, gone.id)).toBe(true);
      expect(await debrisLeft()).toBe(0);
      // A source of the same id starts with no file of the one deleted.
      await store.sources.insert([{ ...gone, file: undefined }]);
      expect(await store.sources.file(bot.id, gone.id)).toBeUndefined();
      expect(same(await store.sources.file(bot.id, kept.id), BIG)).toBe(true);
      await store.chatbots.delete(owner.id, bot.id);
      expect(await debrisLeft()).toBe(0);
    });

    // The sources job of any hub claims whatever is queued: a file it claimed while its bytes
    // were still being written was read as missing (found with two hubs on MongoDB).
    it('hands a file to the sources job only once all its bytes are stored', async () => {
      const big = fileSource(BIG);
      let inserted = false;
      const insert = store.sources.insert([big]).finally(() => (inserted = true));
      const lease = { now: at(0), claimedBy: 'job', leaseUntil: at(60) };
      // As the job does: claim, then read the file at once.
      const claimAndRead = async () => {
        const claimed = await store.sources.claimNext(lease);
        return claimed && { id: claimed.id, file: await store.sources.file(bot.id, claimed.id) };
      };
      let read: Awaited<ReturnType<typeof claimAndRead>>;
      while (!inserted && !read) {
        read = await claimAndRead();
        // A turn of the event loop, which a store writing in steps takes between them.
        await new Promise(setImmediate);
      }
      await insert;
      read ??= await claimAndRead();
      expect(read?.id).toBe(big.id);
      expect(same(read?.file, BIG)).toBe(true);
    });

    // A request sent after a 20 MB write or read began is answered before it ends.
    it('answers a request sent during a 20 MB insert or read before it finishes', async () => {
      const big = fileSource(BIG);
      const during = (work: () => Promise<unknown>) => finishOrder(bystander.url, work);
      expect(await during(() => store.sources.insert([big]))).toEqual(['request', 'work']);
      expect(await during(() => store.sources.file(bot.id, big.id))).toEqual(['request', 'work']);
    });
  });

  describe('chunks taken from the material', () => {
    const ref = (of: Source) => ({ id: of.id, title: of.title, type: of.type });
    const chunksOf = (of: Source, ...texts: string[]) => texts.map((text) => ({ text, source: ref(of) }));
    /** The name these tests give the chunks of a source's text at a revision. */
    const chunksIdOf = (of: Source, revision: number) => `${of.id}@${revision}`;
    /** Material of these runs, in order, each source's chunks made from its text at `revision`, trained from what stands now. */
    const train = async (...runs: { of: Source; revision: number; texts: string[] }[]) =>
      store.training.replace(bot.id, {
        chunks: runs.flatMap(({ of, texts }) => chunksOf(of, ...texts)),
        runs: runs.map(({ of, revision, texts }) => ({ id: of.id, revision, count: texts.length, chunksId: chunksIdOf(of, revision) })),
        revision: await store.sources.nextRevision(bot.id),
      });
    /** What trainedSources answers of a source whose run holds these chunks. */
    const trainedFrom = (of: Source, revision: number, ...texts: string[]) => ({ id: of.id, revision, chunks: chunksOf(of, ...texts), chunksId: chunksIdOf(of, revision) });

    it('trains the ready sources, oldest first, each with its chunks in the material when made from its current text', async () => {
      const text = source({ title: 'Hours', text: 'We open at nine.' });
      const queued = source({ status: 'queued', text: '' });
      const qa = source({ type: 'qa', title: 'Dogs?', question: 'Dogs?', answer: 'Yes.', text: 'Dogs?\nYes.' });
      await store.sources.insert([qa, queued, text]);
      const [first, second] = await store.sources.trainedSources(bot.id);
      expect([first?.id, second?.id, first?.chunks, second?.chunks]).toEqual([text.id, qa.id, undefined, undefined]);
      // Training chunks a source's text ahead, while inserting it, for this revision.
      expect([first?.revision, second?.revision]).toEqual([INSERTED_REVISION, INSERTED_REVISION]);
      await train({ of: text, revision: INSERTED_REVISION, texts: ['We open', 'at nine.'] }, { of: qa, revision: INSERTED_REVISION, texts: ['Dogs? Yes.'] });
      expect(await store.sources.trainedSources(bot.id)).toEqual([
        trainedFrom(text, INSERTED_REVISION, 'We open', 'at nine.'),
        trainedFrom(qa, INSERTED_REVISION, 'Dogs? Yes.'),
      ]);
    });

    it('answers the current material’s runs, each with its chunks’ name, without reading its chunks', async () => {
      expect(await store.training.runs(bot.id)).toEqual({ version: undefined, revision: undefined, runs: [] });
      const [a, b] = [source({ text: 'A.' }), source({ text: 'B.' })];
      await store.sources.insert([a, b]);
      await train({ of: a, revision: INSERTED_REVISION, texts: ['A1', 'A2'] }, { of: b, revision: INSERTED_REVISION, texts: ['B1'] });
      const { version, revision, runs } = await store.training.runs(bot.id);
      expect(version).toBe(await store.training.version(bot.id));
      expect(revision).toBeLessThan(await store.sources.nextRevision(bot.id));
      expect(runs).toEqual([
        { id: a.id, revision: INSERTED_REVISION, start: 0, end: 2, chunksId: chunksIdOf(a, INSERTED_REVISION) },
        { id: b.id, revision: INSERTED_REVISION, start: 2, end: 3, chunksId: chunksIdOf(b, INSERTED_REVISION) },
      ]);
      // Material trained without runs.
      await store.training.replace(bot.id, { chunks: chunksOf(a, 'A.') });
      expect(await store.training.runs(bot.id)).toMatchObject({ version: await store.training.version(bot.id), runs: [] });
    });

    it('takes no chunks of a text changed since they were made, nor any of material trained without runs', async () => {
      const [changed, kept] = [source({ text: 'Old.' }), source({ text: 'Kept.' })];
      await store.sources.insert([changed, kept]);
      await store.sources.update(bot.id, changed.id, { text: 'New.', chars: 4, updatedAt: at(20) });
      const [after] = await store.sources.trainedSources(bot.id);
      expect(after?.revision).not.toBe(INSERTED_REVISION);
      await train({ of: changed, revision: INSERTED_REVISION, texts: ['Old.'] }, { of: kept, revision: INSERTED_REVISION, texts: ['Kept.'] });
      expect(await store.sources.trainedSources(bot.id)).toEqual([
        { id: changed.id, revision: after?.revision },
        trainedFrom(kept, INSERTED_REVISION, 'Kept.'),
      ]);
      // Material trained before runs were recorded.
      await store.training.replace(bot.id, { chunks: chunksOf(kept, 'Kept.') });
      expect((await store.sources.trainedSources(bot.id)).map((trained) => trained.chunks)).toEqual([undefined, undefined]);
    });

    it('answers the revision a put stored its text at, a new source’s and a replaced one’s, chunks good for that revision only', async () => {
      const id = apiTextSource(bot.id, '', at(0)).id;
      const api = (text: string) => apiTextSource(bot.id, text, at(1));
      const first = (await store.sources.put(api('We open at nine.'))) as PutSource;
      expect(await store.sources.trainedSources(bot.id)).toEqual([{ id, revision: first.revision }]);
      await train({ of: first.source, revision: first.revision, texts: ['We open at nine.'] });
      expect(await store.sources.trainedSources(bot.id)).toEqual([trainedFrom(first.source, first.revision, 'We open at nine.')]);
      const replaced = (await store.sources.put(api('We open at ten.'))) as PutSource;
      expect(replaced.revision).not.toBe(first.revision);
      expect(await store.sources.trainedSources(bot.id)).toEqual([{ id, revision: replaced.revision }]);
    });

    it('takes no chunks of a deleted source for one put again under its id, at the revision of their run', async () => {
      const api = (text: string) => apiTextSource(bot.id, text, at(1));
      const first = (await store.sources.put(api('We open at nine.'))) as PutSource;
      await train({ of: first.source, revision: first.revision, texts: ['We open at nine.'] });
      // Removed (a v1 sourceText of '') and put again before a training read the removal.
      await store.sources.delete(bot.id, first.source.id);
      const again = (await store.sources.put(api('We close at five.'))) as PutSource;
      expect(again.revision).toBe(first.revision);
      expect(await store.sources.trainedSources(bot.id)).toEqual([{ id: first.source.id, revision: again.revision }]);
      await train({ of: again.source, revision: again.revision, texts: ['We close at five.'] });
      expect(await store.sources.trainedSources(bot.id)).toEqual([
        trainedFrom(again.source, again.revision, 'We close at five.'),
      ]);
    });

    it('answers each of racing puts the revision of its own text', async () => {
      // Texts of two parts, so each put yields to the other while it writes them.
      const texts = ['a', 'b'].map((letter) => letter.repeat(TEXT_PART_CHARS + 10));
      const puts = (await Promise.all(texts.map((text) => store.sources.put(apiTextSource(bot.id, text, at(1)))))) as PutSource[];
      expect(new Set(puts.map(({ revision }) => revision)).size).toBe(2);
      const [trained] = await store.sources.trainedSources(bot.id);
      const last = puts.findIndex(({ revision }) => revision === trained?.revision);
      expect(await store.sources.text(bot.id, trained?.id ?? '', 1)).toBe(texts[last]?.[0]);
    });

    it('keeps training a source being read again with the chunks of its last reading, until it fails', async () => {
      const [file, other] = [source({ type: 'file', text: 'Old file.' }), source({ type: 'file', text: 'Other.' })];
      await store.sources.insert([file, other]);
      await train({ of: file, revision: INSERTED_REVISION, texts: ['Old file.'] });
      await store.sources.update(bot.id, file.id, { status: 'queued', updatedAt: at(20) });
      await store.sources.update(bot.id, other.id, { status: 'queued', updatedAt: at(20) });
      // The one the material holds trains with its last reading, of the revision it was made from; the other with nothing.
      const lastReading = [trainedFrom(file, INSERTED_REVISION, 'Old file.')];
      expect(await store.sources.trainedSources(bot.id)).toEqual(lastReading);
      const claimed = await store.sources.claimNext({ now: at(21), claimedBy: 'p', leaseUntil: at(90) });
      expect(claimed?.id).toBe(file.id);
      expect(await store.sources.trainedSources(bot.id)).toEqual(lastReading);
      await store.sources.settle(file.id, 'p', { status: 'failed', error: 'Corrupt.', text: '', chars: 0, updatedAt: at(22) });
      expect(await store.sources.trainedSources(bot.id)).toEqual([]);
      // Retrained without it (as the sources job does once it fails), it has nothing to train with
      // when read again, until it is ready.
      await train();
      await store.sources.update(bot.id, file.id, { status: 'queued', updatedAt: at(23) });
      expect(await store.sources.trainedSources(bot.id)).toEqual([]);
    });

    it('leave with their source and their chatbot, and stand for none created again under its id', async () => {
      const [a, b] = [source({ text: 'A.' }), source({ text: 'B.' })];
      await store.sources.insert([a, b]);
      await train({ of: a, revision: INSERTED_REVISION, texts: [a.id] }, { of: b, revision: INSERTED_REVISION, texts: [b.id] });
      await store.sources.delete(bot.id, a.id);
      const withB = trainedFrom(b, INSERTED_REVISION, b.id);
      expect(await store.sources.trainedSources(bot.id)).toEqual([withB]);
      // Created again at the revision of the deleted one's run, before a training read it.
      await store.sources.insert([{ ...a, text: 'Another A.' }]);
      expect(await store.sources.trainedSources(bot.id)).toEqual([{ id: a.id, revision: INSERTED_REVISION }, withB]);
      await store.chatbots.delete(owner.id, bot.id);
      expect(await store.sources.trainedSources(bot.id)).toEqual([]);
    });

    it('reads the chunks of one material, read again when a training replaces it meanwhile', async () => {
      // Many runs, each read on its own, so that a training lands (and removes the material it
      // displaced) while they are read; some long enough to be read in pages.
      const many = Array.from({ length: 30 }, () => source({ text: 'Text.' }));
      await store.sources.insert(many);
      const material = (tag: string) => many.map((of, k) => ({ of, revision: INSERTED_REVISION, texts: Array.from({ length: k % 10 === 0 ? 1_500 : 5 }, (_, n) => `${tag} ${k} ${n}`) }));
      await train(...material('old'));
      const reading = store.sources.trainedSources(bot.id);
      await train(...material('new'));
      const read = (await reading).map((trained) => trained.chunks?.map((chunk) => chunk.text));
      expect([material('old'), material('new')].map((runs) => runs.map(({ texts }) => texts))).toContainEqual(read);
    });
  });

  it('answers ever larger revisions, per chatbot', async () => {
    const other = await seedChatbot(store, owner);
    const first = await store.sources.nextRevision(bot.id);
    const [second, third] = await Promise.all([store.sources.nextRevision(bot.id), store.sources.nextRevision(bot.id)]);
    expect(new Set([first, second, third]).size).toBe(3);
    expect(Math.min(second as number, third as number)).toBeGreaterThan(first);
    expect(await store.sources.nextRevision(other.id)).toBe(1);
  });

  it('makes material current only when built from a later revision than the current one', async () => {
    expect(await store.training.replace(bot.id, { chunks: ['two'], revision: 2 })).toBe(true);
    expect(await store.training.replace(bot.id, { chunks: ['one'], revision: 1 })).toBe(false);
    expect((await store.training.material(bot.id)).chunks.map((chunk) => chunk.text)).toEqual(['two']);
    const ref = { id: 'source-x', title: 'Hours', url: 'https://example.com/hours', type: 'website' as const };
    expect(await store.training.replace(bot.id, { chunks: [{ text: 'three', source: ref }, 'four'], revision: 3 })).toBe(true);
    expect((await store.training.material(bot.id)).chunks).toEqual([
      { seq: 0, text: 'three', source: ref },
      { seq: 1, text: 'four' },
    ]);
  });

  it('goes with its chatbot', async () => {
    const file = source({ type: 'file', file: Buffer.from('abc') });
    await store.sources.insert([file, source()]);
    expect(await store.chatbots.delete(owner.id, bot.id)).toBe(true);
    expect(await store.sources.list(bot.id)).toEqual([]);
    expect(await store.sources.file(bot.id, file.id)).toBeUndefined();
  });

  it('gives the chatbot’s API text source as its v1 source text', async () => {
    await store.training.replace(bot.id, { chunks: [] });
    expect(await store.training.sourceText(bot.id)).toBe('');
    await store.sources.put(apiTextSource(bot.id, 'We open at nine.', at(1)));
    expect(await store.training.sourceText(bot.id)).toBe('We open at nine.');
  });

  describe('processing', () => {
    const lease = (claimedBy: string, second: number, leaseSeconds = 60) => ({
      now: at(second),
      claimedBy,
      leaseUntil: at(second + leaseSeconds),
    });

    it('hands each queued source to one claimer, oldest first, and takes over an ended lease', async () => {
      const older = source({ type: 'file', status: 'queued' });
      const newer = source({ type: 'file', status: 'queued' });
      await store.sources.insert([newer, older]);
      await store.sources.insert([source()]);
      const claims = await Promise.all([store.sources.claimNext(lease('a', 0)), store.sources.claimNext(lease('b', 0))]);
      expect(claims.map((claimed) => claimed?.id).sort()).toEqual([older.id, newer.id].sort());
      expect(claims.every((claimed) => claimed?.status === 'processing')).toBe(true);
      expect(await store.sources.claimNext(lease('c', 30))).toBeUndefined();
      // Both leases end at 60: c takes the older source over, and its first holder lost it.
      const takenOver = await store.sources.claimNext(lease('c', 61, 1_000));
      expect(takenOver?.id).toBe(older.id);
      const lostBy = claims[0]?.id === older.id ? 'a' : 'b';
      expect(await store.sources.renewLease(older.id, lostBy, at(500))).toBe(false);
      expect(await store.sources.settle(older.id, lostBy, { status: 'ready', updatedAt: at(62) })).toBeUndefined();
      expect(await store.sources.renewLease(older.id, 'c', at(500))).toBe(true);
    });

    it('settles only while the lease is held, and renews it', async () => {
      const file = source({ type: 'file', status: 'queued', chars: 0, text: '' });
      await store.sources.insert([file]);
      await store.sources.claimNext(lease('a', 0));
      expect(await store.sources.renewLease(file.id, 'a', at(200))).toBe(true);
      expect(await store.sources.claimNext(lease('b', 100))).toBeUndefined();
      const settled = await store.sources.settle(file.id, 'a', { status: 'ready', chars: 8, text: 'The text', contentType: 'text/plain', updatedAt: at(101) });
      expect(settled).toMatchObject({ status: 'ready', chars: 8, contentType: 'text/plain', updatedAt: at(101) });
      expect(await store.sources.text(bot.id, file.id, 100)).toBe('The text');
      expect(await store.sources.settle(file.id, 'a', { status: 'failed', updatedAt: at(102) })).toBeUndefined();
      expect(await store.sources.claimNext(lease('b', 300))).toBeUndefined();
    });

    it('settles within a character limit, and past it changes nothing, the lease still held', async () => {
      const other = source({ chars: 5 });
      const file = source({ type: 'file', status: 'queued', chars: 0, text: '' });
      await store.sources.insert([other, file]);
      await store.sources.claimNext(lease('a', 0));
      const read = (chars: number) => ({ status: 'ready' as const, error: null, text: 'y'.repeat(chars), chars, updatedAt: at(50) });
      expect(await store.sources.settle(file.id, 'a', read(8), 12)).toEqual({ wouldHold: 5 + 8 });
      expect(await store.sources.find(bot.id, file.id)).toMatchObject({ status: 'processing', chars: 0 });
      expect(await store.sources.text(bot.id, file.id, 100)).toBe('');
      expect(await debrisLeft()).toBe(0);
      expect(await store.sources.claimNext(lease('b', 1))).toBeUndefined();
      expect(await store.sources.settle(file.id, 'a', read(7), 12)).toMatchObject({ status: 'ready', chars: 7 });
      expect(await store.sources.totalChars(bot.id)).toBe(12);
    });

    it('never lets concurrent settles and an insert pass the character limit together, a refused settle leaving its source held', async () => {
      // Texts of two parts, so each write yields to the others.
      const text = 'x'.repeat(TEXT_PART_CHARS + 10);
      const limit = 2 * text.length + text.length / 2;
      const files = Array.from({ length: 3 }, () => source({ type: 'file', status: 'queued', chars: 0, text: '' }));
      await store.sources.insert(files);
      for (const k of files.keys()) await store.sources.claimNext(lease(`p${k}`, 0));
      const read = { status: 'ready' as const, error: null, text, chars: text.length, updatedAt: at(50) };
      const answers = await Promise.all([
        ...files.map((file, k) => store.sources.settle(file.id, `p${k}`, read, limit)),
        store.sources.insert([source({ text, chars: text.length })], limit),
      ]);
      const refused = answers.filter((answer) => answer && 'wouldHold' in answer);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.length).toBeLessThan(answers.length);
      expect(await store.sources.totalChars(bot.id)).toBeLessThanOrEqual(limit);
      const unsettled = [...files.entries()].filter(([k]) => answers[k] && 'wouldHold' in (answers[k] as object));
      for (const [k, file] of unsettled) {
        expect(await store.sources.find(bot.id, file.id)).toMatchObject({ status: 'processing', chars: 0 });
        const over = { status: 'failed' as const, error: 'Over the limit.', text: '', chars: 0, updatedAt: at(60) };
        expect(await store.sources.settle(file.id, `p${k}`, over)).toMatchObject({ status: 'failed' });
      }
      expect(await debrisLeft()).toBe(0);
    });

    it('lets a released source be claimed again at once', async () => {
      const file = source({ type: 'file', status: 'queued' });
      await store.sources.insert([file]);
      await store.sources.claimNext(lease('a', 0));
      await store.sources.release(file.id, 'a');
      expect((await store.sources.claimNext(lease('b', 1)))?.id).toBe(file.id);
    });
  });

  describe('website pages', () => {
    const page = (url: string, status: 'read' | 'failed' | 'skipped', text = '') => ({
      url,
      title: status === 'read' ? `Title of ${url}` : '',
      status,
      chars: text.length,
      text,
      ...(status === 'read' ? {} : { reason: 'It is on another host.' }),
    });

    it('plans URLs once each, in order, and hands out those without an outcome', async () => {
      const site = source({ type: 'website', status: 'queued', url: 'https://example.com/', maxPages: 5, pages: { done: 0, failed: 0, total: 0 } });
      await store.sources.insert([site]);
      expect(await store.sources.planPages(site.id, ['https://example.com/', 'https://example.com/a'])).toBe(2);
      expect(await store.sources.planPages(site.id, ['https://example.com/a', 'https://example.com/b'])).toBe(1);
      const first = await store.sources.nextPage(site.id, -1);
      expect(first?.url).toBe('https://example.com/');
      const second = await store.sources.nextPage(site.id, first?.seq ?? 0);
      expect(second?.url).toBe('https://example.com/a');
      await store.sources.recordPage(site.id, page('https://example.com/', 'read', 'Home page.'));
      expect((await store.sources.nextPage(site.id, -1))?.url).toBe('https://example.com/a');
      const counts = await store.sources.recordPage(site.id, page('https://example.com/a', 'failed'));
      expect(counts).toEqual({ done: 1, failed: 1, total: 3 });
      expect((await store.sources.find(bot.id, site.id))?.pages).toEqual({ done: 1, failed: 1, total: 3 });
      // A page found under a URL never planned is recorded under it.
      await store.sources.recordPage(site.id, page('https://example.com/c', 'read', 'Page C.'));
      expect(await store.sources.pageCounts(site.id)).toEqual({ done: 2, failed: 1, total: 4 });
      expect(await store.sources.pageList(bot.id, site.id)).toEqual([
        { url: 'https://example.com/', title: 'Title of https://example.com/', status: 'read', chars: 10 },
        { url: 'https://example.com/a', title: '', status: 'failed', chars: 0, reason: 'It is on another host.' },
        { url: 'https://example.com/c', title: 'Title of https://example.com/c', status: 'read', chars: 7 },
      ]);
      expect(await store.sources.pageList((await seedChatbot(store, owner)).id, site.id)).toEqual([]);
    });

    it('refuses a page of a deleted source, keeping none of it', async () => {
      const site = source({ type: 'website', status: 'processing', url: 'https://example.com/', maxPages: 5, pages: { done: 0, failed: 0, total: 0 } });
      await store.sources.insert([site]);
      await store.sources.planPages(site.id, ['https://example.com/']);
      await store.sources.delete(bot.id, site.id);
      // Planned before the deletion, and found under a URL never planned.
      for (const url of ['https://example.com/', 'https://example.com/a']) {
        await expect(store.sources.recordPage(site.id, page(url, 'read', 'Home.'))).rejects.toThrow();
      }
      expect(await store.sources.pageCounts(site.id)).toEqual({ done: 0, failed: 0, total: 0 });
      expect(await store.sources.nextPage(site.id, -1)).toBeUndefined();
    });

    it('refuses to plan pages of a deleted source, keeping none of them', async () => {
      const site = source({ type: 'website', status: 'processing', url: 'https://example.com/', maxPages: 5, pages: { done: 0, failed: 0, total: 0 } });
      await store.sources.insert([site]);
      await store.sources.delete(bot.id, site.id);
      await expect(store.sources.planPages(site.id, ['https://example.com/', 'https://example.com/a'])).rejects.toThrow();
      expect(await store.sources.pageCounts(site.id)).toEqual({ done: 0, failed: 0, total: 0 });
      expect(await store.sources.nextPage(site.id, -1)).toBeUndefined();
    });

    it('reads a website’s pages as its text, each page naming its URL and title', async () => {
      const site = source({ type: 'website', title: 'example.com', url: 'https://example.com/', text: '' });
      await store.sources.insert([site]);
      await store.sources.planPages(site.id, ['https://example.com/', 'https://example.com/a', 'https://example.com/b']);
      await store.sources.recordPage(site.id, page('https://example.com/a', 'read', 'Page A.'));
      await store.sources.recordPage(site.id, page('https://example.com/', 'read', 'Home.'));
      await store.sources.recordPage(site.id, page('https://example.com/b', 'skipped'));
      expect(await store.sources.text(bot.id, site.id, 100)).toBe('Home.\n\nPage A.');
      expect(await store.sources.text(bot.id, site.id, 8)).toBe('Home.\n\nP');
      expect(await store.sources.texts(bot.id, site.id)).toEqual([
        { ref: { id: site.id, title: 'Title of https://example.com/', url: 'https://example.com/', type: 'website' }, text: 'Home.' },
        { ref: { id: site.id, title: 'Title of https://example.com/a', url: 'https://example.com/a', type: 'website' }, text: 'Page A.' },
      ]);
      await store.sources.clearPages(site.id);
      expect(await store.sources.pageCounts(site.id)).toEqual({ done: 0, failed: 0, total: 0 });
    });
  });
});
