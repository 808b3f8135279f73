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
