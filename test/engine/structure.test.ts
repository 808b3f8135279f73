import { describe, expect, it } from 'vitest';
import { joinedTextBlocks, joinSentences, readSections, splitSentences, textBlocks } from '../../src/engine/structure.js';

// Training text read by its structure: keys from headings and questions, clean sentences.

describe('readSections', () => {
  it('keys sections by Markdown, underlined and title-like headings, never quoting them', () => {
    const text = [
      'Shop guide', '==========', '',
      'Opening hours', 'We open at nine. We close at six.', '',
      '## Returns', '', 'Unused items come back within 30 days.', '',
      '**Payment:**', 'We take cards.',
    ].join('\n');
    expect(readSections(text)).toEqual([
      { key: 'Opening hours', sentences: ['We open at nine.', 'We close at six.'] },
      { key: 'Returns', sentences: ['Unused items come back within 30 days.'] },
      { key: 'Payment', sentences: ['We take cards.'] },
    ]);
  });

  it('keys FAQ answers by their question, under the heading, without the list markers', () => {
    const text = 'FAQ\n\nQ1. Can I pay later?\nA: Yes, within 14 days.\n\n2. Do you ship? Only in the EU.';
    expect(readSections(text)).toEqual([
      { key: 'FAQ › Can I pay later?', sentences: ['Yes, within 14 days.'] },
      { key: 'FAQ › Do you ship?', sentences: ['Only in the EU.'] },
    ]);
  });

  it('drops the marker of a FAQ answer right after its question that reads as a row, and keeps a row’s first header elsewhere', () => {
    // "A: Yes; Sundays: closed" reads as a row headed "A" and "Sundays": its "A: " was quoted.
    const faq = 'Shop FAQ\n\nQ: Are you open on weekends?\nA: Yes; Sundays: closed before noon.\n\nQ: Do you deliver?\n\nA: Yes; Fridays: free of charge.';
    expect(readSections(faq)).toEqual([
      { key: 'Shop FAQ › Are you open on weekends?', sentences: ['Yes; Sundays: closed before noon.'] },
      { key: 'Shop FAQ › Do you deliver?', sentences: ['Yes; Fridays: free of charge.'] },
    ]);
    const table = '## Questions we get\n\nQ: Do you deliver?; Answer: Yes, within 5 km.\nA: Room 1; B: Room 2';
    expect(readSections(table)).toEqual([
      { key: 'Questions we get', sentences: ['Q: Do you deliver?; Answer: Yes, within 5 km.', '\nA: Room 1; B: Room 2'] },
    ]);
  });

  it('reads list items and troubleshooting lead-ins as sentences and keys', () => {
    const text = '# Setup\n\nThen:\n1. Open the app.\n- Press Start\n* Wait\n\n**The screen is blank.** Check the batteries.\n\nA reset deletes all settings.';
    expect(readSections(text)).toEqual([
      { key: 'Setup', sentences: ['Then:', '\n1. Open the app.', '\n- Press Start', '\n- Wait'] },
      { key: 'Setup › The screen is blank.', sentences: ['Check the batteries.'] },
      { key: 'Setup', sentences: ['A reset deletes all settings.'] },
    ]);
  });

  it('keys a lead-in read as a title under the heading whose section it opens, and alone elsewhere', () => {
    const text = '## Verify a webhook\n\nCheck the signature in Python:\n\nRun the check on every request.\n\nRefund times:\n\nRefunds take a week.';
    expect(readSections(text)).toEqual([
      { key: 'Verify a webhook › Check the signature in Python', sentences: ['Run the check on every request.'] },
      { key: 'Refund times', sentences: ['Refunds take a week.'] },
    ]);
  });

  it("keys a title line under the section heading whose section it opens, with those after it, but not under a text's title", () => {
    const text = [
      '# Harbour Café', '', 'Summer season', '', 'Open daily.', '',
      '## Opening hours', '', 'Summer season', '', 'We open at eight.', '', 'Winter season', '', 'We open at nine.', '',
      'Holidays:', '', 'Closed on 25 December.', '',
      '## Prices', '', 'Bread costs £2.', '', 'Cakes', '', 'A slice costs £3.',
    ].join('\n');
    expect(readSections(text).map((section) => section.key)).toEqual([
      'Summer season',
      'Opening hours › Summer season',
      'Opening hours › Winter season',
      'Opening hours › Holidays',
      'Prices',
      'Cakes',
    ]);
  });

  it('keeps each paragraph without a heading as a section of its own', () => {
    expect(readSections('One fact here.\n\nAnother fact there.').map((section) => section.sentences)).toEqual([
      ['One fact here.'],
      ['Another fact there.'],
    ]);
  });
});

describe('readSections, table rows', () => {
  it('never reads a row with its headers as a title, before a row ending in a stop or before text', () => {
    // Short and without a stop, the first row was the key of the rows below it, and never quoted.
    const rows = ['Room: Kestrel; Floor: 3', 'Room: Heron; Floor: 2; Note: Quiet room.'];
    expect(readSections(`## Rooms\n\n${rows.join('\n')}`)).toEqual([{ key: 'Rooms', sentences: [rows[0], `\n${rows[1]}`] }]);
    expect(readSections(`${rows[0]}\n\nBook a room at the desk.`)).toEqual([
      { key: '', sentences: [rows[0]] },
      { key: '', sentences: ['Book a room at the desk.'] },
    ]);
  });
});

describe('readSections, fenced code', () => {
  it('reads the lines of a fenced code block as code of its section, a paragraph a sentence, never as headings', () => {
    const text = [
      '# Installing', 'Install the package first:', '',
      '```sh', '# install the package', 'npm install switchboard', '', '# start it', 'npx switchboard', '```', '',
      'The hub listens on port 3000.', '',
      '## Keys', '~~~~python', '# read the key', '~~~', 'key = os.environ["KEY"]', '~~~~', 'Keep the key secret.',
    ].join('\n');
    expect(readSections(text)).toEqual([
      {
        key: 'Installing',
        sentences: [
          'Install the package first:',
          '\n# install the package\nnpm install switchboard',
          '\n\n# start it\nnpx switchboard',
          '\nThe hub listens on port 3000.',
        ],
      },
      { key: 'Keys', sentences: ['# read the key\n~~~\nkey = os.environ["KEY"]', '\nKeep the key secret.'] },
    ]);
  });

  it('keeps the indentation of code lines and the runs of white space within them, and the blank lines between the paragraphs of the fence', () => {
    const sections = readSections('# Retries\n\n```yaml\nretries:\n  count:  3\n\n  delay:\t10s  \n```\nRetries stop.');
    expect(sections).toEqual([{ key: 'Retries', sentences: ['retries:\n  count:  3', '\n\n  delay:\t10s', '\nRetries stop.'] }]);
    expect(joinSentences(sections[0]?.sentences.slice(1) ?? [])).toBe('  delay:\t10s\nRetries stop.');
    // The blank line between the code's paragraphs is kept where they are quoted together.
    expect(joinSentences(sections[0]?.sentences ?? [])).toBe('retries:\n  count:  3\n\n  delay:\t10s\nRetries stop.');
  });

  it('keeps a code block without a heading over it one section, and runs it to the end of the text when unclosed', () => {
    expect(readSections('```\n# one\n\n# two\n```\n\nAfter it.\n\n```js\n// Open?\n\n| a | b |')).toEqual([
      { key: '', sentences: ['# one', '\n\n# two'] },
      { key: '', sentences: ['After it.'] },
      { key: '', sentences: ['// Open?', '\n\n| a | b |'] },
    ]);
  });

  it('keeps a paragraph of code without a letter or digit, a lone brace closing a block', () => {
    const code = ['function total(items) {', '  let sum = 0;', '  for (const item of items) {', '    sum += item.price;', '  }', '', '}'];
    const sections = readSections(['# Totals', '', '```js', ...code, '```', 'It adds the prices.'].join('\n'));
    expect(sections[0]?.sentences).toEqual([code.slice(0, 5).join('\n'), '\n\n}', '\nIt adds the prices.']);
    expect(joinSentences(sections[0]?.sentences.slice(0, 2) ?? [])).toBe(code.join('\n'));
  });

  it('takes backticks with a backtick after them for inline code, not a fence', () => {
    expect(readSections('```npm test``` runs the tests.\n\n# Usage\n\nRun it.').map((section) => section.key)).toEqual(['', 'Usage']);
  });
});

describe('splitSentences', () => {
  it('does not end a sentence at abbreviations, initials, decimals, addresses or URLs', () => {
    expect(
      splitSentences(
        'Ask Mr. Smith or J. Doe, e.g. by mail at a.b@shop.example. Delivery costs 5.95 euros, see https://shop.example/a.html. Done!',
      ),
    ).toEqual([
      'Ask Mr. Smith or J. Doe, e.g. by mail at a.b@shop.example.',
      'Delivery costs 5.95 euros, see https://shop.example/a.html.',
      'Done!',
    ]);
  });

  it('reads the word before a period back to white space, past opening quotes and brackets', () => {
    expect(
      splitSentences('(Dr. Smith) came. "St. Ives" is far. Ask J.R.R. Tolkien. Go to U.S. Routes. Call me . Then go. [Etc.] Done.'),
    ).toEqual([
      '(Dr. Smith) came.',
      '"St. Ives" is far.',
      'Ask J.R.R. Tolkien.',
      'Go to U.S. Routes.',
      'Call me .',
      'Then go.',
      '[Etc.] Done.',
    ]);
  });

  it('ends a sentence past closing quotes and brackets, before an opening one, a capital or a digit of any script', () => {
    const cases: [string, string[]][] = [
      ['"Stop!" she said. (Really?) Yes.  x.y. Z', ['"Stop!" she said.', '(Really?)', 'Yes.  x.y. Z']],
      ['It ended.)  "Next one.\' [Then] more', ['It ended.)', '"Next one.\'', '[Then] more']],
      ['Wait...Now. 9 lives! ', ['Wait...Now.', '9 lives!']],
      ['Hi.Ω no. Go.\u2003Ω here? 𝐀 too', ['Hi.Ω no. Go.', 'Ω here?', '𝐀 too']],
      ['Read approx. 5 items. Then Approximately. Done', ['Read approx. 5 items.', 'Then Approximately.', 'Done']],
      ['("E.g. this.) Not it', ['("E.g. this.)', 'Not it']],
    ];
    for (const [line, sentences] of cases) expect(splitSentences(line)).toEqual(sentences);
  });

  it('reads back to any white space, and takes letters of any script or astral plane for initials', () => {
    expect(splitSentences('Call\u00a0J. Smith at\u2003Dr. Who’s. Ask Ω. Berg or 𝐀. Hall. Then Å.B. Doe left. Über. Ende.')).toEqual([
      'Call\u00a0J. Smith at\u2003Dr. Who’s.',
      'Ask Ω. Berg or 𝐀. Hall.',
      'Then Å.B. Doe left.',
      'Über.',
      'Ende.',
    ]);
  });
});

describe('readSections, blocks', () => {
  it('parts blocks at lines of spaces and tabs too, and at a run of line breaks', () => {
    expect(readSections('Shop hours\n \t \nWe open at nine.\n\n\nReturns\n\t\n\nUnused items come back.')).toEqual([
      { key: 'Shop hours', sentences: ['We open at nine.'] },
      { key: 'Returns', sentences: ['Unused items come back.'] },
    ]);
    expect(readSections('Note\n\n \n\nWe open at nine.')).toEqual([
      { key: '', sentences: ['Note'] },
      { key: '', sentences: ['We open at nine.'] },
    ]);
  });

  it('takes a block of white space alone, non-breaking or not, as no text after a title-like line', () => {
    const sentences = (text: string) => readSections(text).map((section) => [section.key, ...section.sentences]);
    expect(sentences('Opening hours\n\n\u00a0\u2003\n\nWe open at nine.')).toEqual([['', 'Opening hours'], ['', 'We open at nine.']]);
    expect(sentences('Opening hours\n\n \u00a0x\n\nWe open at nine.')).toEqual([['Opening hours', 'x', '\nWe open at nine.']]);
  });

  it('reads texts as one joined by blank lines, each text on its own where none ends in white space', () => {
    const cases = [
      ['Title', 'Text follows.\n\nMore', '', '# Next'],
      ['x\n', '\ny'],
      ['a\n  ', 'b'],
      ['a\r', '\nb'],
      ['a\t', '', ' \n c'],
      [' \na', ' \n\n\na\r\t', ' \n\n a\n '],
      [''],
      [],
    ];
    for (const texts of cases) expect(joinedTextBlocks(texts)).toEqual(textBlocks(texts.join('\n\n')));
  });
});

describe('joinSentences', () => {
  it('puts a space between sentences, and a line break before one that begins a line or after one that ends none', () => {
    expect(joinSentences(['We open at nine.', 'We close at five.'])).toBe('We open at nine. We close at five.');
    expect(joinSentences(['Prices:', '\n- City bike: 400 NOK', '\n- Cargo bike: 800 NOK'])).toBe('Prices:\n- City bike: 400 NOK\n- Cargo bike: 800 NOK');
    // A table row, then a sentence from further on in its section.
    expect(joinSentences(['\nPlan: Team; Members: Up to 50', 'We accept Visa.'])).toBe('Plan: Team; Members: Up to 50\nWe accept Visa.');
    expect(joinSentences(['Is it free? ("Yes.")', 'It is.'])).toBe('Is it free? ("Yes.") It is.');
  });
});
