import { describe, expect, it } from 'vitest';
import { chunkPassages, chunkText, packChunks, passageBlocks } from '../../src/engine/chunking.js';
import { readSourceSections } from '../../src/engine/index-parts.js';
import { joinedTextBlocks, joinSentences, readBlockSections, readSections } from '../../src/engine/structure.js';
import { documentText } from './eval/score.js';

// Training text cut into passages: paragraphs tidied and kept whole where they fit.

describe('chunkText', () => {
  it('tidies white space within paragraphs and keeps headings apart, whatever the line breaks', () => {
    const text = '# Title\r\nFirst  line \t here \r\n  second\tline\r\r\n \t \nNext\u00a0 para  \n\n\n## Sub\nText';
    expect(chunkText(text)).toEqual(['# Title\n\nFirst line here\nsecond line\n\nNext\u00a0 para\n\n## Sub\n\nText']);
  });

  it('keeps a line of # in a fenced code block, a shell comment, in its paragraph', () => {
    const text = '## Install\n```sh\n# fetch it\nnpm install switchboard\n```\n~~~\n# start it\n~~~\n# Run';
    expect(chunkText(text)).toEqual(['## Install\n\n```sh\n# fetch it\nnpm install switchboard\n```\n~~~\n# start it\n~~~\n# Run']);
  });

  it('keeps the indentation of fenced code lines, in each paragraph of the fence, and tidies the text around them', () => {
    const text = [
      'Verify  the   webhook:', '``` python', 'def verify(request):', '    if not request.signed:  ', '\t\treturn  False', '',
      '    return True', '```', '  After   the code. ', '', '~~~', '  a:  1', '~~~', ' Then  ', '  text.',
    ].join('\n');
    expect(chunkText(text)).toEqual([
      'Verify the webhook:\n``` python\ndef verify(request):\n    if not request.signed:\n\t\treturn  False\n\n' +
        '    return True\n```\nAfter the code.\n\n~~~\n  a:  1\n~~~\nThen\ntext.',
    ]);
  });

  it('cuts a long paragraph of fenced code between its lines, so the fence after a line ending "done." still closes it', () => {
    const code = Array.from({ length: 40 }, (_, k) => `run-step --number ${k} --depot ${k % 7}`);
    const lines = ['Run these:', '```sh', ...code, '# All done.', '```'];
    const chunks = chunkText(`${lines.join('\n')}\n\n## Returns\n\nReturns are free.`);
    expect(chunks.length).toBeGreaterThan(1);
    const written = chunks.join('\n').split('\n').filter((line) => line && line !== '```');
    expect(written).toEqual([...lines.slice(0, -1), '## Returns', 'Returns are free.']);
    expect(readSourceSections(chunks).map((section) => section.key)).toEqual(['', 'Returns']);
  });

  it('cuts a fenced code line longer than a chunk at white space, keeping its indentation and the runs of spaces within it', () => {
    const line = `\t  config = [${Array.from({ length: 150 }, (_, k) => `item_${k},`).join('  ')}]`;
    const chunks = chunkText(['Set it:', '```py', line, '```'].join('\n'));
    expect(chunks.every((chunk) => chunk.length <= 1_000)).toBe(true);
    const cut = chunks.join('\n').split('\n').slice(2).filter((piece) => !piece.startsWith('```'));
    expect(cut.length).toBeGreaterThan(1);
    expect(cut.join('  ')).toBe(line);
    expect(readSourceSections(chunks)[0]?.sentences[1]).toBe(`\n${cut[0]}`);
  });

  it('closes and opens again the fence of a long paragraph of code where it is cut, so each chunk of it reads as code on its own', () => {
    const body = Array.from({ length: 120 }, (_, k) => (k % 10 === 0 ? `    # Step ${k}` : `    call_${k}(depot=${k % 7})`));
    const code = ['def run():', ...body];
    const chunks = chunkText(['Run it:', '```python', ...code, '```'].join('\n'));
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((chunk) => chunk.length <= 1_000)).toBe(true);
    // Alone, a chunk begun in the code's middle read its lines as text: trimmed, "# Step 20" a heading.
    const alone = chunks.flatMap((chunk) => readSections(chunk));
    expect(alone.map((section) => section.key)).toEqual(['', ...chunks.slice(1).map(() => '')]);
    expect(alone.flatMap((section) => section.sentences.slice(section.sentences[0] === 'Run it:' ? 1 : 0)).join('\n')).toBe(`\n${code.join('\n')}`);
    expect(joinSentences(readSourceSections(chunks)[0]?.sentences ?? [])).toBe(['Run it:', ...code].join('\n'));
  });

  it('keeps a blank line of code where chunks part at it, and makes none where they cut a paragraph of code', () => {
    const paragraph = (from: number) => Array.from({ length: 30 }, (_, k) => `    load_${from + k}(depot=${k % 7})`);
    const code = [...paragraph(0), '', ...paragraph(30), ...paragraph(60)];
    const chunks = chunkText(['Load them:', '```python', ...code, '```'].join('\n'));
    expect(chunks.length).toBeGreaterThan(2);
    expect(joinSentences(readSourceSections(chunks)[0]?.sentences ?? [])).toBe(['Load them:', ...code].join('\n'));
  });

  it('closes and opens again the fence of a code block where chunks part at a blank line in it, the blank line kept', () => {
    // Paragraphs of code a chunk long between them, so that chunks part at each blank line.
    const paragraph = (from: number) => Array.from({ length: 30 }, (_, k) => `    # step ${from + k}\n    ship(${from + k})`).join('\n');
    const code = [paragraph(0), paragraph(30), paragraph(60), paragraph(90), '}'];
    const lines = ['Ship them:', '~~~~python', code.join('\n\n'), '~~~~', 'All shipped.'];
    const chunks = chunkText(lines.join('\n'));
    expect(chunks).toHaveLength(4);
    expect(chunks.every((chunk) => chunk.length <= 1_000)).toBe(true);
    // Alone, a chunk begun at a blank line in the code read its lines as text, "# step 30" a heading.
    const alone = chunks.map((chunk) => readSections(chunk));
    expect(alone.flat().map((section) => section.key)).toEqual(chunks.map(() => ''));
    expect(chunks.slice(1).every((chunk) => chunk.startsWith('~~~~\n\n'))).toBe(true);
    expect(alone.slice(1, -1).flatMap((sections) => sections.flatMap((section) => section.sentences))).toEqual(chunks.slice(1, -1).map((chunk) => `\n${chunk.slice(6, -5)}`));
    // Together they read as the text: the fences where they part are the blank lines between the code's paragraphs.
    expect(readSourceSections(chunks)).toEqual(readSections(lines.join('\n')));
    expect(joinSentences(readSourceSections(chunks)[0]?.sentences ?? [])).toBe(['Ship them:', code.join('\n\n'), 'All shipped.'].join('\n'));
  });

  it('parts paragraphs at lines of any white space, the blank line ending at its last line break', () => {
    expect(chunkText('First part.\n\t\u00a0\n\n Second part.\n \nThird\npart.', 12)).toEqual(['First part.', 'Second part.', 'Third\npart.']);
  });

  it('leaves a paragraph that needs no tidying as it is', () => {
    expect(chunkText('One line.\nAnother line.', 12)).toEqual(['One line.', 'Another', 'line.']);
    expect(chunkText('Plain text here.')).toEqual(['Plain text here.']);
  });

  it('cuts a paragraph too long for a chunk between its lines, so that the items of a long list stay items', () => {
    // Cut at sentence ends and joined by spaces, the items ran into one line, read as one sentence.
    const items = Array.from({ length: 60 }, (_, k) => `- Parcel ${k} ships from depot ${k % 7}.`);
    const chunks = chunkText(`## Parcels\n\n${items.join('\n')}`);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('\n').split('\n').filter(Boolean)).toEqual(['## Parcels', ...items]);
    expect(readSourceSections(chunks).flatMap((section) => section.sentences.map((sentence) => sentence.trim()))).toEqual(items);
    expect(chunkText(`Intro line\n${'Long sentence here. '.repeat(60).trim()}`, 100).every((chunk) => chunk.length <= 100)).toBe(true);
  });

  it('cuts a long paragraph at sentence ends, and a long sentence between words', () => {
    expect(chunkText('First one. Second one! Third? Fourth.', 20)).toEqual(['First one.', 'Second one! Third?', 'Fourth.']);
    expect(chunkText('abcdefghij klm', 4)).toEqual(['abcd', 'efgh', 'ij', 'klm']);
  });
});

describe('chunkPassages, packChunks and passageBlocks', () => {
  // A paragraph too long for one piece, cut within a word, at a line break.
  const unspaced = `${'x'.repeat(999)}\n${'y'.repeat(1_500)}`;
  const texts = [
    `${documentText('handbook.md')}\n\n${documentText('bike-shop.md')}`,
    ['## Heading\nText under it.', '   Indented paragraph.', unspaced, 'After it.', ' \t \n\nSpaced blank line before.', unspaced, 'The end.'].join('\n\n'),
    // Code cut into fenced parts, a line of it cut too.
    ['Run:', '```sh', ...Array.from({ length: 90 }, (_, k) => `  step --number ${k}`), '', `  ${'x '.repeat(700)}`, '```', 'Done.'].join('\n'),
  ];

  it('packs the passages into the chunks of the text', () => {
    for (const text of texts) expect(packChunks(chunkPassages(text))).toEqual(chunkText(text));
  });

  it("gives blocks that read as the text's chunks, and are theirs where no chunk begins at a blank line in code", () => {
    for (const text of texts) expect(readBlockSections(passageBlocks(chunkPassages(text)))).toEqual(readSourceSections(chunkText(text)));
    for (const text of texts.slice(0, 2)) expect(passageBlocks(chunkPassages(text))).toEqual(joinedTextBlocks(chunkText(text)));
  });
});
