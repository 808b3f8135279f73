import { EndnoteReferenceRun, FootnoteReferenceRun, HeadingLevel, Paragraph, Tab, Table, TableCell, TableRow, TextRun, VerticalMergeType } from 'docx';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTableRow, readSections } from '../../../src/engine/structure.js';
import { registry } from '../../../src/metrics.js';
import { extractFile, extractHtml, isExtractionError, sniffFileKind } from '../../../src/sources/extract/index.js';
import { countTurns } from '../../support/event-loop.js';
import {
  docxOf,
  docxOfBody,
  htmlOf,
  MEETING_ROOMS,
  pdfDrawing,
  pdfInColumns,
  pdfOf,
  pdfOfIndex,
  pdfOfLines,
  pdfPrintedByChromium,
  pdfTableOfTwo,
  pdfUnpackingTo,
  UNSHOWN,
} from './documents.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** The processes reading files for this one (children of any of its threads, Linux). */
function readerProcesses(): number[] {
  return readdirSync('/proc/self/task')
    .flatMap((thread) => readFileSync(`/proc/self/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number))
    .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('extract-worker'));
}

/** The sentence extraction fails with (and that it fails with an ExtractionError). */
/** A file whose text is a table's rows, each read as one sentence with its headers. */
async function expectRowsRead(bytes: Uint8Array, rows: string[]): Promise<void> {
  const { text } = await extractFile(bytes);
  expect(text).toBe(rows.join('\n'));
  const [section] = readSections(text);
  expect(section?.sentences.map((sentence) => sentence.trim())).toEqual(rows);
  expect(section?.sentences.every(isTableRow)).toBe(true);
}

async function failure(bytes: Uint8Array): Promise<string> {
  const error: unknown = await extractFile(bytes).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(isExtractionError(error), String(error)).toBe(true);
  return (error as Error).message;
}

// The lines of MEETING_ROOMS every format keeps alike.
const BOOKING = [
  '# Meeting rooms',
  '',
  '## Booking',
  '',
  'Book a room at the front desk at least one day ahead. Cancel the booking if your plans change.',
  '',
  '- Leave the room tidy.',
  '- Return the key to reception.',
];
const STEPS = ['1. Ask at the front desk.', '2. Sign the booking sheet.'];
const ROOMS = ['## Rooms', '', 'Each room has a screen and a door code.', ''];
/** What htmlOf puts around the content: navigation, header, footer, scripts and styles. */
const PAGE_CHROME = ['All rooms', 'Contact us', 'Acme home', 'Copyright', 'track', 'margin'];
/** MEETING_ROOMS 500 times over: a page of 250 KB. */
const LONG_PAGE = htmlOf({ ...MEETING_ROOMS, sections: Array.from({ length: 500 }, () => MEETING_ROOMS.sections).flat() });
/** MEETING_ROOMS from a format that marks its structure (DOCX, HTML). */
const STRUCTURED = [...BOOKING, '', ...STEPS, '', ...ROOMS, 'Room: Kestrel; Floor: 3; Code: KES-4105', 'Room: Heron; Floor: 2; Code: HER-2201'].join('\n');

describe('extractFile', () => {
  it('reads a PDF: headings by size, one line per list item and table row', async () => {
    const extracted = await extractFile(await pdfOf(MEETING_ROOMS));
    expect(extracted).toMatchObject({ kind: 'pdf', contentType: 'application/pdf', title: 'Meeting rooms' });
    expect(extracted.text).toBe(
      [...BOOKING, ...STEPS, '', ...ROOMS, 'Room Floor Code', 'Kestrel 3 KES-4105', 'Heron 2 HER-2201'].join('\n'),
    );
  });

  it('joins a PDF’s wrapped lines where a long word or address went on to the next line, and a word broken at its hyphen', async () => {
    // Each second sentence breaks well before the margin: its next word would not have fitted.
    const paragraphs = [
      'Book a room at the front desk at least one day ahead. Cancel the booking if your plans change, so a colleague can have it.',
      'A lamp that arrives damaged is replaced at no cost to you: send a photograph of it to customerservice@lumen.example.',
      'A lamp that arrives damaged is replaced at no cost to you: send us a photo of it within seventy-two hours.',
    ];
    const extracted = await extractFile(await pdfOf({ title: 'Returns', sections: [{ heading: 'Damage', paragraphs, bullets: [], steps: [] }] }));
    expect(extracted.text).toBe(['# Returns', '## Damage', ...paragraphs].join('\n\n'));
  });

  it('joins a word a PDF breaks between syllables at a line’s end without its hyphen, and keeps a compound’s, as the document writes them elsewhere', async () => {
    // Debian Reference's PDF gave "Print-ing", "Sec-tion", "tempera-ture": TeX breaks words between syllables, and the text writes most of them whole elsewhere.
    const lines = [
      'Printing costs ten cents a page, and it is a well-',
      'known trick to print on both sides. Colour print-',
      'ing takes more time as the printer warms up, and',
      'the print room is kept cool, so that its tempera-',
      'ture stays low, and the printing there is a self-',
      'service job. Ask the service desk for a Challenge-',
      'Response code, or install the fonts-crosextra-',
      'caladea package for the well-known Cambria font.',
    ];
    const extracted = await extractFile(await pdfOfLines([lines]));
    expect(extracted.text).toBe(
      [
        'Printing costs ten cents a page, and it is a well-known trick to print on both sides. Colour printing takes more time as the printer warms up,',
        'and the print room is kept cool, so that its temperature stays low, and the printing there is a self-service job.',
        'Ask the service desk for a Challenge-Response code, or install the fonts-crosextra-caladea package for the well-known Cambria font.',
      ].join(' '),
    );
  });

  it('keeps a PDF paragraph whole where its sentence runs on over a page break, and parts it where a page ends one', async () => {
    // Lines of one length all reach the margin: only the page break or a sentence's end parts them.
    const pages = [
      ['Lockers are on the ground floor beside the stairs, and', 'each has a key that reception keeps and hands to the', 'person who books it for the week, who signs for it in'],
      ['the locker book there. Keys lost cost twenty euros.', '', 'Bicycles go in the shed behind building C, its door', 'code is on the board by the lifts, changed each week.'],
      ['Showers are on the first floor and open all day long,', 'towels are at the gym desk.'],
    ];
    const [first = [], second = [], third = []] = pages;
    const blocks = (await extractFile(await pdfOfLines(pages))).text.split('\n\n');
    expect(blocks).toEqual([[...first, second[0]], second.slice(2), third].map((lines) => lines.join(' ')));
  });

  it('reads a PDF page set in two columns a column at a time, a sentence going on from one into the other, and the lines above and below them where they stand', async () => {
    // Found by audit-sources: each line of the left column was followed by the right column's line beside it.
    const paragraphs = [
      'The library opens at eight on weekdays and at ten on Saturdays. It closes at six, except on Thursdays, when it stays open until nine for the evening reading group and the homework club.',
      'Members may borrow up to twelve books at a time for three weeks. A book may be renewed twice, at the desk, by phone or online, unless another member has reserved it meanwhile.',
      // The left column ends within this paragraph's second sentence.
      'Overdue books cost twenty cents a day each, up to the price of the book. Children’s books are never fined, and a member who returns a lost book within a year gets the charge back.',
      'The reading room upstairs is for quiet study. Laptops are welcome there, phones are not: calls go in the lobby, where the coffee machine and the lockers are.',
    ];
    const [under, bottom] = ['Opening hours change on public holidays: see the board in the lobby.', 'City library, 4 Mill Lane, open to all.'];
    // The page number at its top right is dropped as a page's first line is.
    const extracted = await extractFile(await pdfInColumns('City library', paragraphs, { top: '1', under, bottom }));
    expect(extracted.text).toBe(['# City library', ...paragraphs, under, bottom].join('\n\n'));
    // The line at the bottom left is below the left column, well apart from it.
    const footed = await extractFile(await pdfInColumns('City library', paragraphs, { bottom }));
    expect(footed.text).toBe(['# City library', ...paragraphs, bottom].join('\n\n'));
  });

  it('reads a PDF index in two columns a column at a time, a letter of one column beside an entry of the other', async () => {
    const left = ['# A', '- asn1Coding program 5', '- asn1Decoding program 7', '- asn1Parser program 5', '- ASN.1 schema 2', '# F', '- FDL, the GNU licence 24', '- Future developments 4'];
    const right = ['# M', '- Main type asn1 node 4', '- Memory use and limits 9', '# P', '- Porting to other systems 1', '- Parsing a definitions file 3', '# S', '- Supported ASN.1 types 2'];
    const extracted = await extractFile(await pdfOfIndex([left, right]));
    expect(extracted.text.replace(/(?: \.)+ /g, ' ')).toBe(
      [
        '# A',
        left.slice(1, 5).join('\n'),
        '# F',
        left.slice(6).join('\n'),
        '# M',
        right.slice(1, 3).join('\n'),
        '# P',
        right.slice(4, 6).join('\n'),
        '# S',
        right.slice(7).join('\n'),
      ].join('\n\n'),
    );
  });

  it('keeps each line of a PDF index or table of contents a line of its own, in columns and on a page of one', async () => {
    // The longest entries reach the margin as wrapped prose does: the entry under one was joined to it, and a column of them made one paragraph.
    const left = ['# A', 'asn1Coding program 5', 'asn1Decoding program 7', 'asn1Parser program 5', 'ASN.1 schema 2', '# F', 'FDL, the GNU licence 24', 'Future developments 4'];
    const right = ['# M', 'Main type asn1 node 4', 'Memory use and limits 9', '# P', 'Porting to other systems 1', 'Parsing a definitions file 3', '# S', 'Supported ASN.1 types 2'];
    const index = await extractFile(await pdfOfIndex([left, right]));
    // Each letter a heading, its entries a block of lines.
    const letters = [...left, ...right].join('\n').split(/\n(?=# )/).map((group) => group.replace('\n', '\n\n'));
    expect(index.text.replace(/(?: \.)+ /g, ' ')).toBe(letters.join('\n\n'));
    const plain = ['Ordering 2', 'Shipping and delivery times for every country we ship to 4', 'Returns 12', 'Warranty claims and repairs for lamps bought before 2024 15', 'Gift cards 18'];
    const contents = await extractFile(await pdfOfLines([['Contents', '', ...plain]]));
    expect(contents.text).toBe(`Contents\n\n${plain.join('\n')}`);
    // Prose whose wrapped lines end in a number twice running is still prose.
    const hours = ['The shop on Mill Lane opens at nine and shuts at 5', 'on weekdays, and on Saturdays it is open until 4', 'in the afternoon; it is closed on Sundays.'];
    expect((await extractFile(await pdfOfLines([hours]))).text).toBe(hours.join(' '));
  });

  it('drops a table of contents, its title and its entries running to their pages after dot leaders, from a PDF, a DOCX, HTML and Markdown, and keeps a price list set so and an ellipsis', async () => {
    // Debian Reference's PDF kept 608 such lines ("4.7.1 sudo . . . . . 94"), which crowded its sections out of answers.
    const contents = ['1 Ordering 1', '1.1 Paying . . . . . . . . . . . 1', '1.2 Shipping . . . . . . . . . . 2', '2 Hair salon 2', '2.1 Prices ..................... 2'];
    const prose = 'Order online or by phone… or call in: we answer within the hour...';
    // Its prices go up and down, as pages down a table of contents never do.
    const prices = ['Wash and cut ........ 45', 'Dry cut ........ 30', 'Colour ........ 60'];
    // An entry whose title wraps over two lines, as in a list of tables.
    const wrapped = ['1.3 Returns by post, by courier or at the shop, with the', 'receipt and the box . . . . . . . 2'];
    // A menu's prices rise down it as pages do: under no contents title, it is kept.
    const menu = ['Small coffee ........ 2', 'Medium coffee ........ 3', 'Large coffee ........ 4'];
    // Debian Reference's PDF kept the titles "# Contents" and "# List of Tables" over nothing; a title over text that is no contents stays.
    const boxed = ['Contents', '', 'The box holds a kettle, its base and a descaling sachet.'];
    const pdf = await extractFile(await pdfOfLines([['Contents', '', ...contents.slice(0, 3), ...wrapped, ...contents.slice(3)], [prose, '', ...prices, '', 'Coffee', '', ...menu, '', ...boxed]]));
    expect(pdf.text).toBe([prose, prices.join('\n'), 'Coffee', menu.join('\n'), ...boxed.filter(Boolean)].join('\n\n'));
    const listed = ['# Handbook', prose, prices.map((price) => `- ${price}`).join('\n')].join('\n\n');
    const markdown = await extractFile(utf8(['# Handbook', 'Contents', contents.map((entry) => `- ${entry}`).join('\n'), prose, prices.map((price) => `- ${price}`).join('\n')].join('\n\n')));
    expect(markdown.text).toBe(listed);
    const items = (lines: string[]) => `<ul>${lines.map((line) => `<li>${line}</li>`).join('')}</ul>`;
    const html = await extractFile(utf8(`<!doctype html><html><head><title>Handbook</title></head><body><h1>Handbook</h1><p>Contents</p>${items(contents)}<p>${prose}</p>${items(prices)}</body></html>`));
    expect(html.text).toBe(listed);
    // Word's table of contents: each entry its heading, a tab (its leader dots) and its page, in the styles "toc 1", "toc 2".
    const tocEntry = (entry: string) => {
      const [title = '', page = ''] = [entry.replace(/[ .]+\d+$/, ''), /\d+$/.exec(entry)?.[0]];
      return new Paragraph({ style: `TOC${title.split(' ')[0]?.includes('.') ? 2 : 1}`, children: [new TextRun({ children: [title, new Tab(), page] })] });
    };
    const tocStyles = [1, 2].map((level) => ({ id: `TOC${level}`, name: `toc ${level}`, run: {} }));
    const docx = await extractFile(
      await docxOfBody(
        [new Paragraph({ text: 'Handbook', heading: HeadingLevel.TITLE }), ...contents.map(tocEntry), new Paragraph(prose), ...prices.map((price) => new Paragraph(price))],
        { styles: { paragraphStyles: tocStyles } },
      ),
    );
    expect(docx.text).toBe(['# Handbook', prose, ...prices].join('\n\n'));
  });

  it('parts a PDF line’s section number from the title set right after it, as a contents entry’s number overflowing its box is', async () => {
    // Debian Reference's PDF gave "10.10List of source code merge tools": its number is as wide as the box for it, the title half a point on.
    const glued: [string, string][] = [['10.10', 'List of source code merge tools'], ['A.1', 'The Debian maze'], ['2.4.1', 'Customizing bash']];
    const kept = ['10.12 Main Git commands', '1.5kg of flour, 2.0L of water.'];
    const extracted = await extractFile(await pdfOfLines([[...glued.flatMap((line) => [line, '']), ...kept.flatMap((line) => [line, ''])]]));
    expect(extracted.text).toBe([...glued.map((parts) => parts.join(' ')), ...kept].join('\n\n'));
  });

  it('reads a PDF page that is one table row by row, though its cells are as long as a column’s lines', async () => {
    const rooms = ['Kestrel meeting room', 'Heron meeting room', 'Osprey meeting room', 'Plover quiet room', 'Curlew quiet room'];
    const kits = ['Screen, camera, phone', 'Projector and speakers', 'Whiteboard and screen'];
    const rows = Array.from({ length: 20 }, (_, k) => [rooms[k % rooms.length] ?? '', `Floor ${k + 1}, east wing`, kits[k % kits.length] ?? '']);
    const table = { headers: ['Room', 'Where', 'Equipment'], rows };
    const extracted = await extractFile(await pdfOf({ title: 'Rooms', sections: [{ heading: 'All rooms', paragraphs: [], bullets: [], steps: [], table }] }));
    expect(extracted.text).toBe(['# Rooms', '## All rooms', [table.headers, ...rows].map((row) => row.join(' ')).join('\n')].join('\n\n'));
  });

  it('reads a PDF table of two columns whose cells wrap their text a row a line, not a column at a time', async () => {
    // Each cell's text wraps within it, so both columns read as prose; every row's cells start at one baseline.
    const rows: [string, string][] = [
      ['Situation', 'What we do'],
      ['The parcel arrives damaged or with parts missing from the box', 'We send a replacement within three working days at no cost to you, and a courier collects the damaged parcel from your door.'],
      ['The lamp stops working within the two years of its warranty', 'Send us the order number and a photograph of the lamp. We repair it or, where a repair is not possible, replace it with the same model.'],
      ['You changed your mind about an order that arrived in good condition', 'Return it within thirty days in its original box for a full refund of the price; the cost of sending it back is yours to pay.'],
      ['An order has not arrived ten days after it was sent', 'We trace the parcel with the courier, and if it cannot be found within five days we send the order again.'],
    ];
    const extracted = await extractFile(await pdfTableOfTwo(rows));
    expect(extracted.text).toBe(rows.map((row) => row.join(' ')).join('\n'));
    // A narrow column of short cells, which is no column of prose, beside one of long ones: its gutter is well left of the page's middle.
    const labels = ['Topic', 'Damaged parcel', 'Warranty', 'Change of mind', 'Lost parcel or late delivery'];
    const topics = rows.map(([, answer], index): [string, string] => [labels[index] ?? '', answer]);
    const beside = await extractFile(await pdfTableOfTwo(topics, [90, 350]));
    expect(beside.text).toBe(topics.map((row) => row.join(' ')).join('\n'));
    // Amid prose, which crosses the gutter (so the page is not in columns), and with the cells of every row as tall as each other.
    const prose: [string, string] = [
      'Lumen & Co replaces, repairs or refunds what goes wrong with an order, as the table below sets out for each case. Write to us first, with your order number, and keep the lamp and its box until we answer. We answer every message within two working days, and most within the hour.',
      'Anything the table does not cover is settled by our customer service team within five working days of your first message to them. If you are not content with the outcome, you may ask for the matter to be looked at again by the head of the team, who answers within ten days.',
    ];
    const even: [string, string][] = [
      ['Case', 'Remedy'],
      ['A parcel that arrives damaged, or with a part missing', 'A replacement within three working days, at no cost to you, and we collect the parcel.'],
      ['A lamp that fails within the two years of its warranty', 'A repair or, where none is possible, the same model anew, sent within the week.'],
      ['An order you no longer want, sent back in its box', 'A refund of the price once it reaches us, to the card you paid with, in thirty days.'],
    ];
    const amid = await extractFile(await pdfTableOfTwo(even, [170, 270], prose));
    expect(amid.text).toBe([prose[0], even.map((row) => row.join(' ')).join('\n'), prose[1]].join('\n\n'));
  });

  it('starts each item of a list in a PDF printed by Chromium on a line of its own, its bullet drawn as a shape, and one set as a bullet character', async () => {
    // Chromium draws a bullet as a disc: the items came without it, and one reaching the margin ran on into the next.
    const items = ['Lamps are sent within two working days of your order.', 'Shades are sent separately, in a box of their own.', 'Bulbs come with every lamp, and a spare with every desk lamp.', 'A lamp that arrives damaged is replaced at no cost.'];
    const html = `<html><body style="font: 16px sans-serif"><h1>Shipping</h1><p>How we send your order.</p><ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>
      <ul style="list-style: square"><li>Returns are free.</li></ul><ol><li>Pack the lamp.</li></ol><p>Questions? Ask us.</p></body></html>`;
    const printed = await extractFile(await pdfPrintedByChromium(html, '320px'));
    expect(printed.text).toBe(['# Shipping', 'How we send your order.', items.map((item) => `- ${item}`).join('\n'), '- Returns are free.', '1. Pack the lamp.', 'Questions? Ask us.'].join('\n\n'));
    expect((await extractFile(await pdfOfLines([['• Leave the room tidy.', '• Return the key.']]))).text).toBe('- Leave the room tidy.\n- Return the key.');
  });

  it('drops a PDF’s running headers and footers', async () => {
    const long = { ...MEETING_ROOMS, sections: Array.from({ length: 12 }, () => MEETING_ROOMS.sections).flat() };
    const running = { header: () => 'Acme staff handbook', footer: (page: number, count: number) => `Page ${page} of ${count}` };
    const extracted = await extractFile(await pdfOf(long, { running }));
    expect(extracted.text).not.toMatch(/Acme staff handbook|Page \d/);
    expect(extracted.text.match(/^Kestrel 3 KES-4105$/gm)).toHaveLength(12);
    expect(extracted.text.split('\n\n').slice(0, 3)).toEqual(['# Meeting rooms', '## Booking', BOOKING[4]]);
  });

  it('drops a PDF’s running headers and footers of two lines, and those of a PDF of two pages', async () => {
    // Only each one's line at the page's very edge went: 'Version 4, March 2026' stood on every page, and a two-page PDF kept its header twice.
    const running = {
      header: () => ['Acme staff handbook', 'Version 4, March 2026'],
      footer: (page: number, count: number) => ['Acme Ltd, 4 Mill Lane, Leeds', `Page ${page} of ${count}`],
    };
    for (const times of [12, 4]) {
      const outline = { ...MEETING_ROOMS, sections: Array.from({ length: times }, () => MEETING_ROOMS.sections).flat() };
      const extracted = await extractFile(await pdfOf(outline, { running }));
      expect(extracted.text).not.toMatch(/Acme|Version 4|Page \d/);
      expect(extracted.text.match(/^Kestrel 3 KES-4105$/gm)).toHaveLength(times);
      expect(extracted.text.split('\n\n').slice(0, 3)).toEqual(['# Meeting rooms', '## Booking', BOOKING[4]]);
    }
  });

  it('drops a PDF’s running footer under a page in two columns, its title and its page number apart at the page’s sides, as under the other pages', async () => {
    // Debian Reference's PDF kept "Debian Reference 83 / 233" on its 2 pages in columns: read a side at a time, it was two lines, each too short to recur.
    const paragraphs = [
      'The library opens at eight on weekdays and at ten on Saturdays. It closes at six, except on Thursdays, when it stays open until nine for the evening reading group and the homework club.',
      'Members may borrow up to twelve books at a time for three weeks. A book may be renewed twice, at the desk, by phone or online, unless another member has reserved it meanwhile.',
      'Overdue books cost twenty cents a day each, up to the price of the book. Children’s books are never fined, and a member who returns a lost book within a year gets the charge back.',
      'The reading room upstairs is for quiet study. Laptops are welcome there, phones are not: calls go in the lobby, where the coffee machine and the lockers are.',
    ];
    const footer = (page: number, count: number): [string, string] => ['City library guide', `${page} / ${count}`];
    const extracted = await extractFile(await pdfInColumns('City library', paragraphs, { footer }, 3));
    expect(extracted.text).toBe(['# City library', ...paragraphs, ...paragraphs.slice(0, 3)].join('\n\n'));
  });

  it('drops a PDF’s running header numbered in roman numerals on its front pages and in arabic on the others', async () => {
    // Debian Reference's PDF kept its 26 "Debian Reference ii" … "xxvii": its roman pages, a tenth of it, are too few to recur on half the pages.
    const front = ['i', 'ii', 'iii'];
    const header = (page: number, count: number) => `Acme staff handbook ${front[page - 1] ?? `${page - front.length} / ${count - front.length}`}`;
    const outline = { ...MEETING_ROOMS, sections: Array.from({ length: 24 }, () => MEETING_ROOMS.sections).flat() };
    const extracted = await extractFile(await pdfOf(outline, { running: { header } }));
    expect(extracted.text).not.toContain('Acme');
    expect(extracted.text.match(/^Kestrel 3 KES-4105$/gm)).toHaveLength(24);
  });

  it('keeps a long PDF table’s rows at the foot of its pages, and its header row repeated atop each under the running header', async () => {
    // Each page's last row, "Room 30 5 R-1029", was taken for a running footer, its numbers aside.
    const rows = Array.from({ length: 90 }, (_, k) => [`Room ${k + 1}`, String((k % 5) + 1), `R-${1000 + k}`]);
    const outline = { title: 'Rooms', sections: [{ heading: 'All rooms', paragraphs: [], bullets: [], steps: [], table: { headers: ['Room', 'Floor', 'Code'], rows } }] };
    const extracted = await extractFile(await pdfOf(outline, { running: { header: () => 'Acme staff handbook' } }));
    expect(extracted.text).not.toContain('Acme');
    expect(extracted.text.match(/^Room Floor Code$/gm)?.length).toBeGreaterThan(2);
    expect(extracted.text.match(/^Room \d+ \d R-\d+$/gm)).toHaveLength(90);
  });

  it.each([
    ['Page 1 of 1', 'footer'],
    ['1 / 1', 'footer'],
    ['- 1 -', 'footer'],
    ['1', 'footer'],
    ['xiv', 'footer'],
    ['Page 1', 'header'],
    ['1', 'header'],
  ] as const)('drops a one-page PDF’s page number "%s" (its %s), keeping its other lines', async (marker, edge) => {
    const other = edge === 'footer' ? 'header' : 'footer';
    const running = { [edge]: () => marker, [other]: () => 'Acme staff handbook, edition 4' };
    const extracted = await extractFile(await pdfOf(MEETING_ROOMS, { running }));
    const lines = extracted.text.split('\n').filter((line) => line !== '');
    expect(lines).toContain('Acme staff handbook, edition 4');
    expect(lines).toEqual(expect.arrayContaining(['Kestrel 3 KES-4105', 'Heron 2 HER-2201']));
    expect(lines.filter((line) => /^[-\s]*\d|Page/.test(line))).toEqual(['1. Ask at the front desk.', '2. Sign the booking sheet.']);
    expect(lines).not.toContain(marker);
  });

  it('reads a DOCX: headings, lists, and table rows naming their column headers', async () => {
    const extracted = await extractFile(await docxOf(MEETING_ROOMS));
    expect(extracted).toMatchObject({
      kind: 'docx',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      title: 'Meeting rooms',
    });
    expect(extracted.text).toBe(STRUCTURED);
  });

  it('reads a DOCX’s merged cells into each row they span, and its nested lists indented under their items', async () => {
    // A cell merged down over two rows stood in the first only: the second row's cells moved left, under the wrong headers ("Plan: 6 USD").
    const cell = (text: string, options: Partial<ConstructorParameters<typeof TableCell>[0]> = {}) => new TableCell({ children: [new Paragraph(text)], ...options });
    const row = (...cells: TableCell[]) => new TableRow({ children: cells });
    const docx = await docxOfBody([
      new Paragraph({ text: 'Plans', heading: HeadingLevel.HEADING_1 }),
      new Paragraph({ text: 'Before you buy', bullet: { level: 0 } }),
      new Paragraph({ text: 'Compare the plans', bullet: { level: 1 } }),
      new Paragraph({ text: 'Pay', numbering: { reference: 'steps', level: 0 } }),
      new Paragraph({ text: 'By card', numbering: { reference: 'steps', level: 1 } }),
      new Table({
        rows: [
          row(cell('Plan'), cell('Region'), cell('Price')),
          // Word's vertical merge, as a merged cell is saved.
          row(cell('Basic', { verticalMerge: VerticalMergeType.RESTART }), cell('Europe'), cell('5 EUR')),
          row(cell('', { verticalMerge: VerticalMergeType.CONTINUE }), cell('America'), cell('6 USD')),
          row(cell('Pro'), cell('Europe', { rowSpan: 2 }), cell('15 EUR')),
          row(cell('Team'), cell('40 EUR')),
        ],
      }),
    ]);
    expect((await extractFile(docx)).text).toBe(
      [
        '# Plans',
        '- Before you buy\n  - Compare the plans',
        '1. Pay\n  1. By card',
        [
          'Plan: Basic; Region: Europe; Price: 5 EUR',
          'Plan: Basic; Region: America; Price: 6 USD',
          'Plan: Pro; Region: Europe; Price: 15 EUR',
          'Plan: Team; Region: Europe; Price: 40 EUR',
        ].join('\n'),
      ].join('\n\n'),
    );
    const html = '<table><tr><th>Store</th><th>Day</th><th>Hours</th></tr><tr><td rowspan="2">Oslo</td><td>Weekdays</td><td>9-17</td></tr><tr><td>Saturday</td><td>10-14</td></tr></table>';
    expect((await extractFile(utf8(html))).text).toBe('Store: Oslo; Day: Weekdays; Hours: 9-17\nStore: Oslo; Day: Saturday; Hours: 10-14');
  });

  it('reads a DOCX’s footnotes and endnotes into its text, each after the paragraph, list or table first citing it, without its link back', async () => {
    // The notes were a numbered list at the document's end, each reference a marker: "A lamp costs 40 EUR[1]." … "1. Prices include VAT."
    const cited = (text: string, note: FootnoteReferenceRun | EndnoteReferenceRun, after = '') => new Paragraph({ children: [new TextRun(text), note, new TextRun(after)] });
    const cell = (paragraph: Paragraph) => new TableCell({ children: [paragraph] });
    const docx = await docxOfBody(
      [
        cited('A lamp costs 40 EUR', new FootnoteReferenceRun(1), '. It ships in a box.'),
        new Paragraph({ children: [new TextRun({ text: 'Lamps', bold: true })] }),
        new Paragraph({ text: 'Brass', bullet: { level: 0 } }),
        new Paragraph({ children: [new TextRun('Steel'), new FootnoteReferenceRun(2)], bullet: { level: 0 } }),
        new Table({ rows: [new TableRow({ children: [cell(new Paragraph('Lamp')), cell(new Paragraph('Delivery'))] }), new TableRow({ children: [cell(new Paragraph('Desk')), cell(cited('2 days', new EndnoteReferenceRun(1)))] })] }),
        new Paragraph('Thank you.'),
      ],
      {
        footnotes: { 1: { children: [new Paragraph('Prices include VAT.'), new Paragraph('Shipping is extra.')] }, 2: { children: [new Paragraph('Made to order.')] } },
        endnotes: { 1: { children: [new Paragraph('Within Europe.')] } },
      },
    );
    expect((await extractFile(docx)).text).toBe(
      [
        'A lamp costs 40 EUR. It ships in a box.',
        'Note: Prices include VAT. Shipping is extra.',
        'Lamps',
        '- Brass\n- Steel',
        'Note: Made to order.',
        'Lamp: Desk; Delivery: 2 days',
        'Note: Within Europe.',
        'Thank you.',
      ].join('\n\n'),
    );
  });

  it('writes a footnote’s superscript marker apart from its word and an exponent in superscript characters, in HTML and DOCX', async () => {
    // A superscript was glued to its word: "The price3 is 40 EUR for 12 m2".
    const expected = 'The price[3] is 40 EUR for 12 m², 10⁶ lux and x², on the 1st floor since 2019[4], as ever[1].';
    const html = '<p>The price<sup>3</sup> is 40 EUR for 12 m<sup>2</sup>, 10<sup>6</sup> lux and x<sup>2</sup>, on the 1<sup>st</sup> floor since 2019<sup>4</sup>, as ever<sup class="reference"><a href="#cite-1">1</a></sup>.</p><p><sup>3</sup> Including VAT.</p>';
    expect((await extractFile(utf8(html))).text).toBe(`${expected}\n\n[3] Including VAT.`);
    // Word's superscript runs (w:vertAlign superscript), as a marker typed by hand and an exponent are set.
    const runs = ['The price', '^3', ' is 40 EUR for 12 m', '^2', ', 10', '^6', ' lux and x', '^2', ', on the 1', '^st', ' floor since 2019', '^4', ', as ever', '^1', '.'];
    const paragraph = new Paragraph({ children: runs.map((run) => new TextRun({ text: run.replace('^', ''), superScript: run.startsWith('^') })) });
    expect((await extractFile(await docxOfBody([paragraph]))).text).toBe(expected);
  });

  it('writes a trademark’s superscript TM, SM or R as its sign, in HTML and DOCX', async () => {
    // Set as plain text it glued to the name: "AcmeTM", "LumenSM", "ZetaR".
    const expected = 'Acme™ lamps, Lumen℠ service and Zeta® bulbs, 2 m², note[a].';
    const html = '<p>Acme<sup>TM</sup> lamps, Lumen<sup>SM</sup> service and Zeta<sup>R</sup> bulbs, 2 m<sup>2</sup>, note<sup>a</sup>.</p>';
    expect((await extractFile(utf8(html))).text).toBe(expected);
    const runs = ['Acme', '^TM', ' lamps, Lumen', '^SM', ' service and Zeta', '^R', ' bulbs, 2 m', '^2', ', note', '^a', '.'];
    const paragraph = new Paragraph({ children: runs.map((run) => new TextRun({ text: run.replace('^', ''), superScript: run.startsWith('^') })) });
    expect((await extractFile(await docxOfBody([paragraph]))).text).toBe(expected);
  });

  it('keeps an HTML page’s main content and drops its navigation, header, footer and scripts', async () => {
    const extracted = await extractFile(utf8(htmlOf(MEETING_ROOMS)));
    expect(extracted).toMatchObject({ kind: 'html', contentType: 'text/html', title: 'Meeting rooms' });
    expect(extracted.text).toBe(STRUCTURED);
    for (const dropped of PAGE_CHROME) expect(extracted.text).not.toContain(dropped);
  });

  it('drops the text a browser does not show, not the panels a visitor opens, on a page Readability reads and on a short page read whole', async () => {
    // A short page kept the text of elements hidden by their attribute or style; Readability dropped the panels a visitor opens.
    const long = htmlOf({ ...MEETING_ROOMS, sections: Array.from({ length: 3 }, () => MEETING_ROOMS.sections).flat() }).replace('</article>', `${UNSHOWN.html}</article>`);
    const short = `<html><head><title>Hours</title></head><body><main><h1>Hours</h1><p>Open 9 to 5.</p>${UNSHOWN.html}</main></body></html>`;
    for (const page of [long, short]) {
      const { text } = await extractFile(utf8(page));
      for (const opened of UNSHOWN.opened) expect(text).toContain(opened);
      for (const word of UNSHOWN.words) expect(text).not.toContain(word);
    }
  });

  it('keeps a short page’s content, not a long header line', async () => {
    const page = `<html><head><title>Hours - Acme</title></head><body><header><p>Welcome to Acme Corporation, the home of fine
      widgets and gadgets since 1921, serving customers in every town of the county.</p><nav><a href="/">Home</a></nav></header>
      <main><h1>Hours</h1><p>Open 9 to 5.</p></main><footer>Copyright Acme</footer></body></html>`;
    expect(await extractFile(utf8(page))).toMatchObject({ title: 'Hours', text: '# Hours\n\nOpen 9 to 5.' });
  });

  it('keeps a page of links its content, not its footer, when Readability takes the footer for the article', async () => {
    // A help centre's index crawled in a walk-through: the article's list of links is too link-dense
    // for Readability, which picked the footer, and "Who owns Flowdesk?" was answered with it.
    const articles = Array.from({ length: 30 }, (_, i) => `<li><a href="/a${i}.html">Help article number ${i}</a></li>`).join('');
    const paragraph = (text: string) => `<p>${text}</p>`;
    const page = `<!doctype html><html><head><title>Flowdesk Help Centre</title></head><body>
      <header><a href="/">Flowdesk Help Centre</a><nav><ul>${articles.slice(0, 400)}</ul></nav></header>
      <main><article><h1>Flowdesk Help Centre</h1>${paragraph('Find answers about billing, your account, teams, projects and integrations.')}
      ${paragraph('Was this article helpful? <a href="/contact.html">Contact us</a>')}<ul>${articles}</ul></article></main>
      <footer><p>© 2026 Flowdesk GmbH. <a href="/privacy.html">Privacy</a> · <a href="/terms.html">Terms</a> · Cookie settings</p></footer></body></html>`;
    const { text } = extractHtml(page);
    expect(text).toContain('Find answers about billing, your account, teams, projects and integrations.');
    expect(text).toContain('- Help article number 29');
    expect(text).not.toContain('Flowdesk GmbH');
  });

  it('reads Markdown with a GFM table, its rows naming the headers', async () => {
    const markdown = [
      '# Meeting rooms',
      '',
      'Book a room **one day** ahead,',
      'at the [front desk](https://example.com/desk).',
      '',
      '## Rooms',
      '',
      '| Room | Floor | Code |',
      '| --- | ---: | --- |',
      '| Kestrel | 3 | KES-4105 |',
      '| Heron | 2 | HER-2201 |',
      '',
      '* Leave the room tidy.',
      '* Return the key.',
    ].join('\n');
    const extracted = await extractFile(utf8(markdown));
    expect(extracted).toMatchObject({ kind: 'markdown', contentType: 'text/markdown', title: 'Meeting rooms' });
    expect(extracted.text).toBe(
      [
        '# Meeting rooms',
        '',
        'Book a room one day ahead, at the front desk.',
        '',
        '## Rooms',
        '',
        'Room: Kestrel; Floor: 3; Code: KES-4105',
        'Room: Heron; Floor: 2; Code: HER-2201',
        '',
        '- Leave the room tidy.',
        '- Return the key.',
      ].join('\n'),
    );
  });

  it('reads Markdown footnotes: a reference leaves its sentence and its note follows the paragraph, list or table first citing it', async () => {
    // The references and notes stayed literal: "A lamp costs 40 EUR[^vat]." and "[^vat]: Prices include VAT,".
    const markdown = [
      '# Lamps',
      '',
      'A lamp costs 40 EUR[^vat]. It ships in two days[^eu].',
      '[^vat]: Prices include VAT,',
      '    and **packing**.',
      '',
      '- Brass finish[^eu]',
      '- Steel finish [^Finish]',
      '',
      '| Lamp | Price |',
      '| --- | --- |',
      '| Desk | 40 EUR[^vat] |',
      '',
      '```',
      'grep "[^eu]" orders.txt',
      '```',
      '',
      '[^eu]: Within the EU.',
      '[^finish]: Made to order.',
      '[^unused]: Cited nowhere.',
    ].join('\n');
    expect((await extractFile(utf8(markdown))).text).toBe(
      [
        '# Lamps',
        'A lamp costs 40 EUR. It ships in two days.',
        'Note: Prices include VAT, and packing.',
        'Note: Within the EU.',
        '- Brass finish\n- Steel finish',
        'Note: Made to order.',
        'Lamp: Desk; Price: 40 EUR',
        '```\ngrep "[^eu]" orders.txt\n```',
      ].join('\n\n'),
    );
  });

  it('keeps Markdown’s code blocks fenced, so their shell comments stay code of their section, not headings', async () => {
    // Written as bare lines, "# stop the hub" was a first-level heading over the code and the text after it.
    const markdown = '## Upgrading\n\nBack up first.\n\n```sh\n# stop the hub\nsystemctl stop hub\n\n# fetch it\nnpm i ```x```\n```\n\nThen start.\n';
    const { text } = await extractFile(utf8(markdown));
    expect(text).toBe('## Upgrading\n\nBack up first.\n\n````\n# stop the hub\nsystemctl stop hub\n\n# fetch it\nnpm i ```x```\n````\n\nThen start.');
    expect(readSections(text).map((section) => section.key)).toEqual(['Upgrading']);
  });

  it('keeps code’s indentation, in a list item too: a Markdown fence, HTML’s <pre>, a DOCX’s code styles; no other line keeps its', async () => {
    // A list item's code was run into its line ("1. Install it: ``` npm i switchboard --global ```"), a DOCX's code was paragraphs of prose.
    const code = ['def hours(day):', '    if day == "Sunday":', '\treturn None', '    return "9-17"'];
    const fence = ['```', ...code, '```'];
    const markdown = ['   Open every day.', '', '```py', ...code, '```', '', '1. Install it:', '', '   ```sh', '   npm i switchboard', '     --global', '   ```', '2. Start it.'].join('\n');
    const html = `<p>   Open every day.</p><pre>${code.join('\n')}</pre><ol><li>Install it:<pre><code>npm i switchboard\n  --global</code></pre></li><li>Start it.</li></ol>`;
    const expected = ['Open every day.', fence.join('\n'), ['1. Install it:', '```', 'npm i switchboard', '  --global', '```', '2. Start it.'].join('\n')].join('\n\n');
    expect((await extractFile(utf8(markdown))).text).toBe(expected);
    expect((await extractFile(utf8(html))).text).toBe(expected);
    // Text after an item's code stays after it, a line of the item's.
    const item = '<ul><li><p>Run it:</p><pre>  make\n\tmake install</pre><p>Then   wait.</p></li><li>Done.</li></ul>';
    expect((await extractFile(utf8(item))).text).toBe('- Run it:\n```\n  make\n\tmake install\n```\n  Then wait.\n- Done.');
    const codeStyles = ['Code', 'Source Code', 'HTML Preformatted'].map((name) => ({ id: name.replace(/ /g, ''), name, run: { font: 'Courier New' } }));
    const codeLine = (style: string, line: string) => new Paragraph({ style, children: [new TextRun({ children: line.startsWith('\t') ? [new Tab(), line.slice(1)] : [line] })] });
    const docx = await docxOfBody(
      [
        new Paragraph('   Open every day.'),
        ...code.map((line) => codeLine('Code', line)),
        new Paragraph({ text: 'Install it:', numbering: { reference: 'steps', level: 0 } }),
        codeLine('SourceCode', 'npm i switchboard'),
        codeLine('HTMLPreformatted', '  --global'),
      ],
      { styles: { paragraphStyles: codeStyles } },
    );
    expect((await extractFile(docx)).text).toBe(['Open every day.', fence.join('\n'), '1. Install it:', '```\nnpm i switchboard\n  --global\n```'].join('\n\n'));
  });

  it('keeps the lines of code broken with <br>, in HTML’s <pre> and a DOCX code paragraph’s line breaks', async () => {
    // Read as the <pre>'s textContent, they ran together: "npm installnpm start".
    const expected = 'Start it:\n\n```\nnpm install\nnpm start\n  --port 3900\n```';
    expect((await extractFile(utf8('<p>Start it:</p><pre><code>npm install<br>npm start</code><br/>  --port 3900</pre>'))).text).toBe(expected);
    const docx = await docxOfBody(
      [
        new Paragraph('Start it:'),
        new Paragraph({
          style: 'Code',
          children: [new TextRun('npm install'), new TextRun({ text: 'npm start', break: 1 }), new TextRun({ text: '  --port 3900', break: 1 })],
        }),
      ],
      { styles: { paragraphStyles: [{ id: 'Code', name: 'Code', run: { font: 'Courier New' } }] } },
    );
    expect((await extractFile(docx)).text).toBe(expected);
  });

  it('reads the code of a table cell or a description into its row’s line without its fences, its lines parted by " / ", in HTML and DOCX', async () => {
    // The fences ran into the row: "Code: ``` / npm install / npm start / ```".
    const html = [
      '<table><tr><th>Step</th><th>Code</th></tr>',
      '<tr><td>Install</td><td><pre>npm install\nnpm start</pre></td></tr>',
      '<tr><td>Check</td><td><p>Run it:</p><pre>curl localhost:3900/healthz</pre></td></tr></table>',
      '<dl><dt>Stop</dt><dd><pre>  kill %1\n\n  rm hub.pid</pre></dd></dl>',
    ].join('');
    const rows = ['Step: Install; Code: npm install / npm start', 'Step: Check; Code: Run it: curl localhost:3900/healthz'];
    expect((await extractFile(utf8(html))).text).toBe([...rows, '', 'Stop: kill %1 / rm hub.pid'].join('\n'));
    // Parted by "; ", a cell's code would read as more cells, and the row as no row with its headers.
    expect(isTableRow(rows[0] as string)).toBe(true);
    const cell = (...paragraphs: Paragraph[]) => new TableCell({ children: paragraphs });
    const code = (line: string) => new Paragraph({ style: 'Code', text: line });
    const docx = await docxOfBody(
      [
        new Table({
          rows: [
            new TableRow({ tableHeader: true, children: [cell(new Paragraph('Step')), cell(new Paragraph('Code'))] }),
            new TableRow({ children: [cell(new Paragraph('Install')), cell(code('npm install'), code('npm start'))] }),
          ],
        }),
      ],
      { styles: { paragraphStyles: [{ id: 'Code', name: 'Code', run: { font: 'Courier New' } }] } },
    );
    expect((await extractFile(docx)).text).toBe(rows[0]);
  });

  it('reads a row whose cells hold code with colons and semicolons as a row with its headers, in HTML and DOCX', async () => {
    // "Code: cd app; make" read as a cell "make" without its header, and the row as no row.
    const rows = ['Room: Kestrel; Floor: 3; Code: a:b', 'Room: Heron; Floor: 2; Code: cd app; make', 'Room: Wren; Floor: 1; Code: x; y / key: value;'];
    const html = [
      '<table><tr><th>Room</th><th>Floor</th><th>Code</th></tr>',
      '<tr><td>Kestrel</td><td>3</td><td><code>a:b</code></td></tr>',
      '<tr><td>Heron</td><td>2</td><td><code>cd app; make</code></td></tr>',
      '<tr><td>Wren</td><td>1</td><td><pre>x; y\nkey: value;</pre></td></tr></table>',
    ].join('');
    const cell = (...paragraphs: Paragraph[]) => new TableCell({ children: paragraphs });
    const code = (line: string) => new Paragraph({ style: 'Code', text: line });
    const row = (...cells: TableCell[]) => new TableRow({ children: cells });
    const docx = await docxOfBody(
      [
        new Table({
          rows: [
            row(cell(new Paragraph('Room')), cell(new Paragraph('Floor')), cell(new Paragraph('Code'))),
            row(cell(new Paragraph('Kestrel')), cell(new Paragraph('3')), cell(code('a:b'))),
            row(cell(new Paragraph('Heron')), cell(new Paragraph('2')), cell(code('cd app; make'))),
            row(cell(new Paragraph('Wren')), cell(new Paragraph('1')), cell(code('x; y'), code('key: value;'))),
          ],
        }),
      ],
      { styles: { paragraphStyles: [{ id: 'Code', name: 'Code', run: { font: 'Courier New' } }] } },
    );
    for (const bytes of [utf8(html), docx]) await expectRowsRead(bytes, rows);
    expect(isTableRow('Tip: x; y')).toBe(false);
  });

  it('reads a row whose cell holds sentences as one sentence with its headers, in HTML and DOCX', async () => {
    // "Command: cd app." and "Then run make." were two sentences, the second without a header.
    const rows = ['Step: 1; Command: Open the hub. Sign in! Is it up? Then add a bot.', 'Step: 2; Command: cd app. Then run make'];
    const html = [
      '<table><tr><th>Step</th><th>Command</th></tr>',
      '<tr><td>1</td><td><p>Open the hub. Sign in!</p><p>Is it up? Then add a bot.</p></td></tr>',
      '<tr><td>2</td><td>cd app. Then run make</td></tr></table>',
    ].join('');
    const cell = (...texts: string[]) => new TableCell({ children: texts.map((text) => new Paragraph(text)) });
    const docx = await docxOfBody([
      new Table({
        rows: [
          new TableRow({ children: [cell('Step'), cell('Command')] }),
          new TableRow({ children: [cell('1'), cell('Open the hub. Sign in!', 'Is it up? Then add a bot.')] }),
          new TableRow({ children: [cell('2'), cell('cd app. Then run make')] }),
        ],
      }),
    ]);
    for (const bytes of [utf8(html), docx]) await expectRowsRead(bytes, rows);
  });

  it('keeps a row’s first header that reads as a FAQ marker ("Q", "A", "Question", "Answer"), in HTML and DOCX', async () => {
    // "Q: " and "Answer: " were stripped as FAQ markers: the row was read as a question without its headers.
    const tables = [
      { headers: ['Q', 'Answer'], cells: [['Do you deliver?', 'Yes, within 5 km.'], ['Can I pay by card?', 'Yes. Cash too.']] },
      { headers: ['Question', 'Answer'], cells: [['Do you cater', 'Only at weekends']] },
      { headers: ['Answer', 'Votes'], cells: [['Yes', '12']] },
      { headers: ['A', 'B'], cells: [['Room 1', 'Room 2']] },
    ];
    for (const { headers, cells } of tables) {
      const rows = cells.map((row) => row.map((cell, i) => `${headers[i]}: ${cell}`).join('; '));
      const htmlRow = (tag: string, row: string[]) => `<tr>${row.map((cell) => `<${tag}>${cell}</${tag}>`).join('')}</tr>`;
      const html = `<table>${htmlRow('th', headers)}${cells.map((row) => htmlRow('td', row)).join('')}</table>`;
      const docxRow = (row: string[]) => new TableRow({ children: row.map((cell) => new TableCell({ children: [new Paragraph(cell)] })) });
      const docx = await docxOfBody([new Table({ rows: [headers, ...cells].map(docxRow) })]);
      for (const bytes of [utf8(html), docx]) await expectRowsRead(bytes, rows);
    }
  });

  it('keeps the blank lines of a DOCX’s code, and makes no line of an empty list item or paragraph', async () => {
    // mammoth skipped every empty paragraph: the code's blank lines went, "b" ran on under "a".
    const code = (line: string) => new Paragraph({ style: 'Code', text: line });
    const docx = await docxOfBody(
      [
        new Paragraph('Run it:'),
        code('a'),
        code(''),
        code('b'),
        new Paragraph(''),
        new Paragraph({ text: '', bullet: { level: 0 } }),
        new Paragraph({ text: 'Done.', bullet: { level: 0 } }),
        new Paragraph({ text: '', numbering: { reference: 'steps', level: 0 } }),
        new Paragraph({ text: 'Start it.', numbering: { reference: 'steps', level: 0 } }),
      ],
      { styles: { paragraphStyles: [{ id: 'Code', name: 'Code', run: { font: 'Courier New' } }] } },
    );
    expect((await extractFile(docx)).text).toBe(['Run it:', '```\na\n\nb\n```', '- Done.', '1. Start it.'].join('\n\n'));
  });

  it('drops Markdown front matter, its title naming the file', async () => {
    const extracted = await extractFile(utf8('---\ntitle: "Room guide"\nlayout: page\n---\n\n## Rooms\n\nEach room has a screen.\n'));
    expect(extracted).toMatchObject({ kind: 'markdown', title: 'Room guide', text: '## Rooms\n\nEach room has a screen.' });
  });

  it('drops Markdown’s TOML front matter as its YAML one', async () => {
    // Hugo's pages open with TOML between +++ lines: it was read as the text's first paragraph.
    const extracted = await extractFile(utf8('+++\ntitle = "Room guide"\ndraft = false\n+++\n\n## Rooms\n\nEach room has a screen.\n'));
    expect(extracted).toMatchObject({ kind: 'markdown', title: 'Room guide', text: '## Rooms\n\nEach room has a screen.' });
  });

  it('reads a table whose rows are labelled by a header cell as label: values', async () => {
    const html = '<table><tr><th>Weight</th><td>2 kg</td></tr><tr><th>Colours</th><td>red</td><td>blue</td></tr></table>';
    expect((await extractFile(utf8(html))).text).toBe('Weight: 2 kg\nColours: red; blue');
  });

  it('reads a table’s cell of several paragraphs, lines or items into its row’s line, and leaves an empty cell out, in DOCX and HTML', async () => {
    // A cell's paragraphs ran together ("Floor: 3 East wing"), and a label with an empty value stood alone ("Floor").
    const cell = (...paragraphs: Paragraph[]) => new TableCell({ children: paragraphs.length ? paragraphs : [new Paragraph('')] });
    const row = (...cells: TableCell[]) => new TableRow({ children: cells });
    const docx = await docxOfBody([
      new Table({
        rows: [
          new TableRow({ tableHeader: true, children: [cell(new Paragraph('Room')), cell(new Paragraph('Floor'))] }),
          row(cell(new Paragraph('Kestrel')), cell(new Paragraph('3'))),
          row(cell(new Paragraph('Heron')), cell()),
          row(cell(new Paragraph('Osprey')), cell(new Paragraph('3'), new Paragraph('East wing'))),
          row(cell(new Paragraph('Wren')), cell(new Paragraph({ text: '2', bullet: { level: 0 } }), new Paragraph({ text: 'West wing', bullet: { level: 0 } }))),
        ],
      }),
    ]);
    const rooms = ['Room: Kestrel; Floor: 3', 'Room: Heron', 'Room: Osprey; Floor: 3 / East wing', 'Room: Wren; Floor: 2 / West wing'].join('\n');
    expect((await extractFile(docx)).text).toBe(rooms);
    const headed = '<table><thead><tr><th>Room</th><th>Floor</th></tr></thead><tr><td>Kestrel</td><td>3</td></tr><tr><td>Heron</td><td> </td></tr><tr><td>Osprey</td><td><p>3</p><p>East wing</p></td></tr><tr><td>Wren</td><td>2<br>West wing</td></tr></table>';
    expect((await extractFile(utf8(headed))).text).toBe(rooms);
    const labelled = '<table><tr><th>Room</th><td>Kestrel</td></tr><tr><th>Floor</th><td></td></tr><tr><th colspan="2">Access</th></tr><tr><th>Hours</th><td><p>Open daily.</p><p>Closed on holidays.</p></td></tr><tr><th>Wing</th><td><ul><li>East</li><li>Level 2</li></ul></td></tr></table>';
    expect((await extractFile(utf8(labelled))).text).toBe('Room: Kestrel\nAccess\nHours: Open daily. Closed on holidays.\nWing: East / Level 2');
  });

  it('reads a DOCX table of labels ending in a colon and their values as label: values, not its first row as headers', async () => {
    // Its first row was taken for the headers: "Room:: Floor:; Kestrel: 3".
    const row = (...texts: string[]) => new TableRow({ children: texts.map((text) => new TableCell({ children: [new Paragraph(text)] })) });
    const docx = await docxOfBody([new Table({ rows: [row('Room:', 'Kestrel'), row('Floor:', '3'), row('Wing:', ''), row('Seats:', '8')] })]);
    expect((await extractFile(docx)).text).toBe('Room: Kestrel\nFloor: 3\nSeats: 8');
  });

  it('reads an HTML description list a term a line, naming its descriptions', async () => {
    // Each term and description was a paragraph of its own: "2 kg" stood apart from "Weight".
    const html = [
      '<h2>Arco floor lamp</h2><dl><dt>Weight</dt><dd>2 kg</dd><dt>Colours</dt><dd>Brass</dd><dd>Black</dd>',
      '<div><dt>Bulb</dt><dt>Lamp</dt><dd><p>E27, 8 W LED.</p><p>Sold separately.</p></dd></div>',
      '<dt>Can I dim it?</dt><dd>Yes, with any LED dimmer.</dd></dl>',
    ].join('');
    expect((await extractFile(utf8(html))).text).toBe(
      ['## Arco floor lamp', '', 'Weight: 2 kg', 'Colours: Brass; Black', 'Bulb, Lamp: E27, 8 W LED. Sold separately.', 'Can I dim it? Yes, with any LED dimmer.'].join('\n'),
    );
  });

  it('reads text that is not UTF-8: Windows-1252, or the charset an HTML page declares', async () => {
    const latin = new Uint8Array([...utf8('Caf'), 0xe9, ...utf8(' cr'), 0xe8, ...utf8('me costs 5 '), 0x80, ...utf8('.')]);
    expect(await extractFile(latin)).toMatchObject({ kind: 'text', text: 'Café crème costs 5 €.' });
    // 会議室 ("meeting room") in Shift_JIS.
    const page = [...utf8('<html><head><meta charset="shift_jis"></head><body><p>'), 0x89, 0xef, 0x8b, 0x63, 0x8e, 0xba, ...utf8('</p></body></html>')];
    expect(await extractFile(new Uint8Array(page))).toMatchObject({ kind: 'html', text: '会議室' });
  });

  it('reads plain text as it is, its line ends tidied', async () => {
    const extracted = await extractFile(utf8('\uFEFFOpening hours\r\nMonday to Friday: 9 to 5.   \r\n\r\n\r\n\r\n- Closed on holidays.\r\n'));
    expect(extracted).toEqual({
      kind: 'text',
      contentType: 'text/plain',
      title: undefined,
      text: 'Opening hours\nMonday to Friday: 9 to 5.\n\n- Closed on holidays.',
    });
  });

  it('reads plain text’s indented paragraphs without their indentation, its indented commands as code, and drops its separators', async () => {
    // Debian Reference's text edition: its paragraphs, four spaces in, kept their indentation into the chunks, and "# apt-get update" was read as a heading.
    const manual = [
      'Installing',
      '    Update the package lists first, then install the editor with the\n    following commands, as root. The download takes a minute.',
      '\u00a0\u00a0\u00a0 # apt-get update\n    # apt-get install vim',
      '    $ sudo lvm\n    lvm> lvscan\n      ACTIVE   /dev/goofy/root\n    lvm> exit\n    Exiting.',
      '    #!/bin/sh\n    for x in *; do\n      mv "$x" "$x.bak"\n    done',
      '------------------------------------------------------------',
      '    The hosted plan costs twenty dollars, or in other words\n    $ 20 a month, paid in advance.',
      '      * Back up your files before you upgrade the system, and keep\n        the backup apart.',
    ].join('\n\n');
    const extracted = await extractFile(utf8(manual));
    expect(extracted.kind).toBe('text');
    expect(extracted.text).toBe(
      [
        'Installing',
        'Update the package lists first, then install the editor with the\nfollowing commands, as root. The download takes a minute.',
        '```\n# apt-get update\n# apt-get install vim\n```',
        '```\n$ sudo lvm\nlvm> lvscan\n  ACTIVE   /dev/goofy/root\nlvm> exit\nExiting.\n```',
        '```\n#!/bin/sh\nfor x in *; do\n  mv "$x" "$x.bak"\ndone\n```',
        'The hosted plan costs twenty dollars, or in other words\n$ 20 a month, paid in advance.',
        '* Back up your files before you upgrade the system, and keep\nthe backup apart.',
      ].join('\n\n'),
    );
  });

  it('drops a table of contents without pages, and its title, where its entries name the document’s own headings, and keeps a list that names none', async () => {
    // Debian Reference's text edition kept its contents and list of tables, 657 lines that are section numbers and titles.
    const contents = ['Table of Contents', '1. Ordering\n1.1. Paying by card\n1.2. Returns by post, by courier or at the shop, with\nthe receipt\n2. Delivery\n2.1. Abroad'];
    const tables = ['List of Tables', '1.1. Card fees\n2.1. Delivery times by country\n2.2. Delivery prices'];
    const box = ['Contents', '1. A kettle\n2. Its base\n3. A descaling sachet'];
    const body = [
      'Chapter 1. Ordering',
      '1.1.\u00a0Paying by card',
      'Table 1.1. Card fees',
      'Visa: free. Amex: 2%.',
      '1.2. Returns by post, by courier or at the shop, with the receipt',
      'Send it back within 30 days.',
      'Chapter 2. Delivery',
      '2.1. Abroad',
      'Table 2.1. Delivery times by country',
      'France: 3 days.',
      'Table 2.2. Delivery prices',
      'France: 9 euros.',
    ];
    const extracted = await extractFile(utf8([...contents, ...tables, ...box, ...body].join('\n\n')));
    expect(extracted.text).toBe([...box, ...body].join('\n\n'));
  });

  it('judges the type from the content, not the name: a .pdf file that is text is read as text', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'extract-')), 'handbook.pdf');
    await writeFile(path, 'The handbook is in the shared drive.\n');
    const extracted = await extractFile(new Uint8Array(await readFile(path)));
    expect(extracted).toMatchObject({ kind: 'text', text: 'The handbook is in the shared drive.' });
  });

  it('fails an encrypted PDF with a sentence naming the password', async () => {
    const message = await failure(await pdfOf(MEETING_ROOMS, { userPassword: 'secret' }));
    expect(message).toBe('The PDF is encrypted with a password; remove the password (the encryption) and upload it again.');
  });

  it('fails a PDF with no text layer, asking whether it is a scan', async () => {
    expect(await failure(await pdfOf(MEETING_ROOMS, { textless: true }))).toBe('The PDF has no text layer: no text found; is it a scan?');
  });

  it('reads a page of a PDF as long as it holds no more text than a page can, and stops parsing past that', async () => {
    // A megabyte of PDF whose page unpacked to 300 MB of text held the extraction worker for two minutes.
    expect((await extractFile(pdfDrawing(100))).text).toContain('All work and no play makes a dull bot.');
    const bomb = pdfDrawing(1_000_000);
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    expect(await failure(bomb)).toBe('Page 1 of the PDF holds more than 200,000 characters of text, more than a page can, so the file is not read.');
  });

  it('stops reading a file once it takes more memory than the hub allows one file, and reads the next as before', async () => {
    // 3 MB of PDF unpacking to 3 GB of blank space held 7 GB of the hub's memory for a minute: no
    // page-text limit sees blank space, and a 20 MB one takes a machine's memory, the hub with it.
    const bomb = await pdfUnpackingTo(1024 * 1024 * 1024);
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const limit = 256 * 1024 * 1024;
    await expect(extractFile(bomb, limit)).rejects.toThrow(
      'Reading the file took more than the 256 MB of memory the hub allows one file, so it is not read: it may be damaged, or made to unpack to far more than its size.',
    );
    expect((await extractFile(await pdfOf(MEETING_ROOMS), limit)).text).toContain('# Meeting rooms');
  }, 60_000);

  it('gives back all the memory of a reading it stopped: the hub keeps none of it, and reads the next file', async () => {
    // A stopped worker thread left about three quarters of its memory with the hub until it
    // restarted: three 1 GB-limited stops in a row left it 2.2 GB larger.
    const limit = 512 * 1024 * 1024;
    const meetingRooms = await pdfOf(MEETING_ROOMS);
    const bomb = await pdfUnpackingTo(1024 * 1024 * 1024);
    // The reader started and warm, so that what is measured is the stopped reading alone.
    await extractFile(meetingRooms, limit);
    const before = process.memoryUsage.rss();
    await expect(extractFile(bomb, limit)).rejects.toThrow('Reading the file took more than the 512 MB of memory');
    // Slack for the test's own allocations and the collector's timing: a tenth of what the reading took.
    expect(process.memoryUsage.rss() - before).toBeLessThan(limit / 10);
    expect((await extractFile(meetingRooms, limit)).text).toContain('# Meeting rooms');
  }, 60_000);

  it('fails only the file whose reading process ended (killed), with a sentence, and reads the next', async () => {
    const meetingRooms = await pdfOf(MEETING_ROOMS);
    await extractFile(meetingRooms);
    // A gigabyte of blank space keeps the reader busy long after it is killed.
    const reading = extractFile(await pdfUnpackingTo(1024 * 1024 * 1024));
    const next = extractFile(meetingRooms);
    const readers = readerProcesses();
    expect(readers).not.toHaveLength(0);
    for (const pid of readers) process.kill(pid, 'SIGKILL');
    await expect(reading).rejects.toThrow(
      'The reading of the file stopped before it finished, so it is not read: upload it again, and if it stops again the file may be damaged.',
    );
    expect((await next).text).toContain('# Meeting rooms');
  }, 60_000);

  it('shows the reading process’s resident memory in /metrics, as a process apart from the hub’s', async () => {
    await extractFile(utf8('Opening hours are nine to five.'));
    expect(readerProcesses()).not.toHaveLength(0);
    const scraped = await registry.getSingleMetricAsString('switchboard_extraction_process_resident_memory_bytes');
    const bytes = Number(/^switchboard_extraction_process_resident_memory_bytes (\d+)$/m.exec(scraped)?.[1]);
    // A Node.js process with tsx loaded holds tens of megabytes at least.
    expect(bytes).toBeGreaterThan(10 * 1024 * 1024);
  });

  it('fails a truncated PDF or DOCX as damaged', async () => {
    const pdf = await pdfOf(MEETING_ROOMS);
    const docx = await docxOf(MEETING_ROOMS);
    expect(await failure(pdf.subarray(0, Math.floor(pdf.length * 0.8)))).toBe(
      'The file looks like a PDF but is damaged or incomplete, so it could not be read.',
    );
    expect(await failure(docx.subarray(0, Math.floor(docx.length * 0.8)))).toBe(
      'The file looks like a DOCX file but is damaged or incomplete, so it could not be read.',
    );
  });

  it('fails text that stops decoding past the part the type is judged from as damaged', async () => {
    const text = utf8(`${'Opening hours are nine to five. '.repeat(3_000)}\n`);
    expect(sniffFileKind(text)).toBe('text');
    const broken = new Uint8Array([...text, 0xff, 0xfe, 0x00, 0x41]);
    expect(await failure(broken)).toBe('The file looks like a text file but is damaged or incomplete, so it could not be read.');
  });

  it('fails unsupported bytes: a PNG, a zip that is not a DOCX, binary junk', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1]);
    // The same zip with its Word body renamed: a valid archive, but no document in it.
    const docx = Buffer.from(await docxOf(MEETING_ROOMS));
    const zip = new Uint8Array(Buffer.from(docx.toString('latin1').replaceAll('word/document.xml', 'word/documenT.xml'), 'latin1'));
    const junk = new Uint8Array(4096).map((_, index) => (index * 7919 + 13) % 251);
    for (const bytes of [png, zip, junk]) {
      expect(sniffFileKind(bytes)).toBeUndefined();
      expect(await failure(bytes)).toBe(
        'Unsupported file type: upload a PDF, DOCX, Markdown, HTML or plain text file (the type is judged from the content, not the name).',
      );
    }
  });

  it('fails a file with no text', async () => {
    expect(await failure(utf8(' \n\n '))).toBe('The file contains no text.');
  });

  it('extracts off the event loop: it keeps turning meanwhile', async () => {
    // HTML is read synchronously (linkedom, Readability): on the calling thread, no turn would run.
    const turns = countTurns();
    const extracted = await extractFile(utf8(LONG_PAGE));
    turns.stop();
    // A page this long is an article to Readability, which picks its main content.
    expect(extracted.text.match(/^Room: Kestrel; Floor: 3; Code: KES-4105$/gm)).toHaveLength(500);
    for (const dropped of PAGE_CHROME) expect(extracted.text).not.toContain(dropped);
    expect(turns.count).toBeGreaterThan(10);
  });
});

describe('extractHtml', () => {
  it('titles a page without a title by its address, as a browser tab does', () => {
    expect(extractHtml('<p>Open 9 to 5.</p>', 'https://acme.example/help/hours')).toEqual({
      title: 'acme.example/help/hours',
      text: '# acme.example/help/hours\n\nOpen 9 to 5.',
    });
  });

  it('drops a documentation page’s links to the pages before and after it and its table of contents, marked by no <nav>, and keeps a list of links that is content', () => {
    // The Debian Administrator's Handbook (DocBook) kept 364 such lines on its 127 pages ("- Prev", "- NextPreface"), and its index page its whole contents.
    const pager = (previous: string, next: string) =>
      `<ul class="docnav"><li class="previous">${previous && `<a accesskey="p" href="a.html"><strong>Prev</strong>${previous}</a>`}</li><li class="home">Handbook</li><li class="next"><a accesskey="n" href="c.html"><strong>Next</strong>${next}</a></li></ul>`;
    const contents = '<div class="toc"><dl class="toc"><dt><a href="a.html">1. Installing</a></dt><dd><dl><dt><a href="b.html">1.1. Booting</a></dt></dl></dd></dl></div>';
    const para = (text: string) => `<div class="para">${text}</div>`;
    const links = '<ul><li><a href="p.html">Prices</a></li><li><a href="m.html">Next week’s menu</a></li></ul>';
    const body = [pager('', ''), `<h1>1.2. Booting</h1>`, contents, para('Press F12 at start to choose the USB stick.'), links, pager('Chapter 1. Installing', '1.3. Partitioning')].join('');
    const { text } = extractHtml(`<!doctype html><html><head><title>1.2. Booting</title></head><body>${body}</body></html>`);
    expect(text).toBe(['# 1.2. Booting', 'Press F12 at start to choose the USB stick.', '- Prices\n- Next week’s menu'].join('\n\n'));
  });

  it('writes a box’s title in a list item, a sidebar’s or a note’s, and the text after it on lines of their own under the item', () => {
    // The Debian Administrator's Handbook ran "PERSPECTIVE Beyond software", a DocBook sidebar's title, and its text into the item's line.
    const sidebar = '<div class="sidebar"><div class="titlepage"><p class="title"><strong><em>PERSPECTIVE</em> Beyond software</strong></p></div><div class="para">The contract once said “100% free software”.</div></div>';
    const note = '<div class="admonition note"><p class="admonition-title">Note</p><p>Firmware is packaged apart.</p></div>';
    const items = `<ol><li><div class="para">Debian will remain 100% free.</div><div class="para">This is rule one.</div>${sidebar}</li><li><p>We give back.</p>${note}</li></ol>`;
    const { text } = extractHtml(`<!doctype html><html><head><title>Contract</title></head><body><h1>Contract</h1>${items}</body></html>`);
    expect(text).toBe(
      ['# Contract', ['1. Debian will remain 100% free. This is rule one.', '  PERSPECTIVE Beyond software', '  The contract once said “100% free software”.', '2. We give back.', '  Note', '  Firmware is packaged apart.'].join('\n')].join('\n\n'),
    );
  });
});

describe('sniffFileKind', () => {
  it('tells HTML, Markdown and text apart by their structure', () => {
    expect(sniffFileKind(utf8('<!DOCTYPE html><html><body><p>Hi</p></body></html>'))).toBe('html');
    expect(sniffFileKind(utf8('  <div class="faq"><p>Hi</p></div>'))).toBe('html');
    expect(sniffFileKind(utf8('Intro\n\n## Returns\n\nWithin 30 days.'))).toBe('markdown');
    expect(sniffFileKind(utf8('| a | b |\n|---|---|\n| 1 | 2 |'))).toBe('markdown');
    expect(sniffFileKind(utf8('See [the guide](https://example.com/guide).'))).toBe('markdown');
    expect(sniffFileKind(utf8('<p align="center"><img src="logo.png"></p>\n\n# Widget\n\n| a | b |\n|---|---|\n| 1 | 2 |'))).toBe('markdown');
    expect(sniffFileKind(utf8('Returns: within 30 days.\n- Keep the receipt.\nPrices < 5 EUR ship free.'))).toBe('text');
    expect(sniffFileKind(utf8('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><text>Hi</text></svg>'))).toBeUndefined();
    expect(sniffFileKind(utf8('<rss version="2.0"><channel><title>News</title></channel></rss>'))).toBeUndefined();
  });

  it('reads a PDF or a DOCX by its signature', async () => {
    expect(sniffFileKind(await pdfOf(MEETING_ROOMS))).toBe('pdf');
    expect(sniffFileKind(await docxOf(MEETING_ROOMS))).toBe('docx');
  });
});
