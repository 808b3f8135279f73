import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/engine/chunking.js';
import { buildLexicalIndex, lexicalSearcher } from '../../src/engine/lexical-index.js';
import { documentText } from './eval/score.js';

// The index is plain data: it survives a structured clone (a worker thread's postMessage, a
// store) and answers exactly as the original does.

describe('buildLexicalIndex', () => {
  const chunks = chunkText(documentText('thermostat-manual.md')).map((text, seq) => ({ seq, text }));

  it('is structured-clonable plain data that searches the same after a clone', () => {
    const index = buildLexicalIndex(chunks);
    const copy = structuredClone(index);
    expect(copy).toEqual(index);
    for (const question of ['How long do the batteries last?', 'Does it work with 5 GHz networks?', 'reset']) {
      expect(lexicalSearcher(copy)(question, 4)).toEqual(lexicalSearcher(index)(question, 4));
    }
  });

  it('hands on sections under their heading, with the heading apart from the sentences', () => {
    const [best] = lexicalSearcher(buildLexicalIndex(chunks))('How long do the batteries last?', 4);
    expect(best?.key).toBe('6. Batteries');
    expect(best?.sentences[0]).toEqual({ text: 'The batteries last about one year.', weight: expect.any(Number) });
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
