import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/engine/chunking.js';
import { buildLexicalIndex, lexicalSearcher } from '../../src/engine/lexical-index.js';
import { documentText } from './eval/score.js';

describe('buildLexicalIndex', () => {
  const chunks = chunkText(documentText('thermostat-manual.md')).map((text, seq) => ({ seq, text }));

  it('hands on sections under their heading, with the heading apart from the sentences', () => {
    const [best] = lexicalSearcher(buildLexicalIndex(chunks))('How long do the batteries last?', 4);
    expect(best?.key).toBe('6. Batteries');
    expect(best?.sentences[0]).toEqual({ text: 'The batteries last about one year.', weight: expect.any(Number), beyondKey: expect.any(Number) });
    expect(best?.text.startsWith('6. Batteries\nThe batteries last about one year.')).toBe(true);
  });
});

describe('follow-ups', () => {
  const handbook = [
    '# Harbour Bikes handbook',
    '## Opening hours',
    'Our shop is open Monday to Friday from 9:00 to 18:00. On Saturday we open from 10:00 to 16:00.',
    '## Service',
    'We service all brands, including e-bikes.',
    '## Delivery',
    'We deliver bikes within 25 km of the shop for 20 euros.',
  ].join('\n\n');
  const search = lexicalSearcher(buildLexicalIndex(chunkText(handbook).map((text, seq) => ({ seq, text }))));

  it('answers a question that refers back ("it") from the earlier question\'s section', () => {
    const [best] = search({ question: 'How much does it cost?', context: 'Do you deliver bikes?' }, 4);
    expect(best?.key).toBe('Delivery');
  });

  it('does not let the earlier question outweigh a follow-up that names something new', () => {
    const [best] = search({ question: 'And on Saturday?', context: 'Do you fix electric bikes?' }, 4);
    expect(best?.key).not.toBe('Service');
  });
});

describe('ranking', () => {
  // Sections alike but for their headings score alike: the earlier comes first, whatever the limit.
  const sections = Array.from({ length: 30 }, (_, k) => `## Depot ${k + 1}\n\nThe night shift packs the ceiling lamps on Mondays.`);
  const search = lexicalSearcher(buildLexicalIndex(chunkText(sections.join('\n\n')).map((text, seq) => ({ seq, text }))));

  it('ranks sections by score, the earlier first among equals, and keeps the best within the limit', () => {
    const all = search('Who packs the ceiling lamps?', 100, { around: false });
    expect(all.map((passage) => passage.key)).toEqual(sections.map((_, k) => `Depot ${k + 1}`));
    for (const limit of [1, 3, 29]) expect(search('Who packs the ceiling lamps?', limit, { around: false })).toEqual(all.slice(0, limit));
  });

  it('puts a better section first wherever it stands', () => {
    const better = [...sections.slice(0, 20), '## Lamps\n\nThe ceiling lamps are packed by the night shift.', ...sections.slice(20)];
    const passages = lexicalSearcher(buildLexicalIndex(chunkText(better.join('\n\n')).map((text, seq) => ({ seq, text }))))(
      'Which lamps does the night shift pack?',
      3,
      { around: false },
    );
    expect(passages.map((passage) => passage.key)).toEqual(['Lamps', 'Depot 1', 'Depot 2']);
  });

  it('counts every word of a long question that the material holds', () => {
    // Two hundred words, each a term of its own, numbered unevenly apart by the words between
    // them where the material first has them: the question's terms fill a table of many slots,
    // some wanting the same.
    const word = (k: number) => `zq${String.fromCharCode(97 + (k % 26))}${String.fromCharCode(97 + Math.floor(k / 26))}x`;
    const asked = Array.from({ length: 200 }, (_, k) => word(k));
    let filler = 200;
    const spread = asked.map((term, k) => [term, ...Array.from({ length: (k * k * 31) % 7 }, () => word(filler++))].join(' '));
    const text = `## Other\n\n${spread.join(' ')}.\n\n## Glossary\n\n${asked.join(' ')}.`;
    const [best] = lexicalSearcher(buildLexicalIndex(chunkText(text).map((t, seq) => ({ seq, text: t }))))(asked.join(' '), 4, { around: false });
    expect(best?.key).toBe('Glossary');
    expect(best?.coverage).toBe(1);
  });
});

describe('sources', () => {
  const hours = { id: 'hours', title: 'Opening hours', type: 'text' } as const;
  const delivery = { id: 'delivery', title: 'Delivery', url: 'https://shop.example/delivery', type: 'website' } as const;
  const chunks = [
    { seq: 0, text: '## Hours\n\nThe shop opens at nine and closes at six.', source: hours },
    { seq: 1, text: '## Delivery\n\nWe deliver bikes within 25 km of the shop for 20 euros.', source: delivery },
  ];
  const search = lexicalSearcher(buildLexicalIndex(chunks));

  it("hands each passage its section's source", () => {
    expect(search('When does the shop open?', 1)[0]?.source).toEqual(hours);
    expect(search('Do you deliver bikes?', 1)[0]?.source).toEqual(delivery);
  });

  it('reads a source once and shares it unchangeable between searches', () => {
    const [first] = search('Do you deliver bikes?', 1);
    const [again] = search('How far do you deliver?', 1);
    expect(again?.source).toBe(first?.source);
    expect(() => Object.assign(first?.source ?? {}, { title: 'Changed' })).toThrow(TypeError);
    expect(search('Do you deliver bikes?', 1)[0]?.source?.title).toBe('Delivery');
  });
});
