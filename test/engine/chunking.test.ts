import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/engine/chunking.js';

// Training text cut into passages: paragraphs tidied and kept whole where they fit.

describe('chunkText', () => {
  it('tidies white space within paragraphs and keeps headings apart, whatever the line breaks', () => {
    const text = '# Title\r\nFirst  line \t here \r\n  second\tline\r\r\n \t \nNext\u00a0 para  \n\n\n## Sub\nText';
    expect(chunkText(text)).toEqual(['# Title\n\nFirst line here\nsecond line\n\nNext\u00a0 para\n\n## Sub\n\nText']);
  });

  it('parts paragraphs at lines of any white space, the blank line ending at its last line break', () => {
    expect(chunkText('First part.\n\t\u00a0\n\n Second part.\n \nThird\npart.', 12)).toEqual(['First part.', 'Second part.', 'Third\npart.']);
  });

  it('leaves a paragraph that needs no tidying as it is', () => {
    expect(chunkText('One line.\nAnother line.', 12)).toEqual(['One line.', 'Another', 'line.']);
    expect(chunkText('Plain text here.')).toEqual(['Plain text here.']);
  });

  it('cuts a long paragraph at sentence ends, and a long sentence between words', () => {
    expect(chunkText('First one. Second one! Third? Fourth.', 20)).toEqual(['First one.', 'Second one! Third?', 'Fourth.']);
    expect(chunkText('abcdefghij klm', 4)).toEqual(['abcd', 'efgh', 'ij', 'klm']);
  });
});
