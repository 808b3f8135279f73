import { describe, expect, it } from 'vitest';
import { withoutContents } from '../../../src/sources/extract/contents.js';
import { extractFile } from '../../../src/sources/extract/index.js';
import { markdownText } from '../../../src/sources/extract/markdown-notes.js';
import { LINE_BREAK_HYPHEN, withBrokenWordsJoined } from '../../../src/sources/extract/pdf-hyphens.js';
import { MEETING_ROOMS, pdfOf } from './documents.js';

// A file's text may hold a line or a word of any length (a data URI, a base64 block, a run of
// words with no stop): reading it must take time in proportion to it. Before, the patterns tried
// every start and every length at each: each of these ran on for hours, holding the extraction
// process (not finished in 200 seconds), where they now take milliseconds.

describe('extraction of very long lines and words', () => {
  it('joins the words a PDF broke at a line’s end beside a word of 200,000 letters', () => {
    const long = 'a'.repeat(200_000);
    expect(withBrokenWordsJoined(`${long} tempera${LINE_BREAK_HYPHEN}ture, temperature ${long}1${LINE_BREAK_HYPHEN}x`)).toBe(
      `${long} temperature, temperature ${long}1-x`,
    );
  });

  it('reads a contents title’s entries beside a line of 200,000 characters that ends in a number', () => {
    const long = `${'word '.repeat(40_000)}12`;
    const contents = ['Contents', '', '1 Ordering . . . . . . . 1', '2 Paying . . . . . . . . 2', '3 Shipping . . . . . . . 3'].join('\n');
    expect(withoutContents(`${contents}\n\n${long}`)).toBe(long);
  });

  it('stops a reading that runs past its time, saying so, and reads the next file', async () => {
    // Whatever may still make a reader's work grow out of proportion, the reading process is stopped (SOURCES_MAX_READ_SECONDS).
    const pdf = await pdfOf(MEETING_ROOMS);
    await expect(extractFile(pdf, undefined, 1)).rejects.toThrow(
      'Reading the file took longer than the 0 seconds the hub allows one file, so it is not read: it may be damaged, or made to take far longer than its size.',
    );
    expect((await extractFile(pdf)).text).toContain('Kestrel');
  });

  it('reads a Markdown line of 1,000,000 characters of brackets, and places its footnote', () => {
    const brackets = '[a]('.repeat(250_000);
    expect(markdownText(`A lamp costs 40 EUR[^1]. ${brackets}\n\n[^1]: Prices include VAT.\n`)).toBe(
      `A lamp costs 40 EUR. ${brackets}\n\nNote: Prices include VAT.`,
    );
  });

  it('reads a Markdown file of 40,000 paragraphs above a code block of 10,000,000 characters', () => {
    const paragraphs = 'a\n\n'.repeat(40_000);
    const code = 'x'.repeat(10_000_000);
    expect(markdownText(`${paragraphs}\`\`\`\n${code}\n\`\`\`\n`)).toBe(`${paragraphs}\`\`\`\n${code}\n\`\`\``);
  });
});
