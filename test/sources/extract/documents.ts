import {
  AlignmentType,
  Document,
  HeadingLevel,
  type IPropertiesOptions,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
} from 'docx';
import { createDeflate, deflateSync } from 'node:zlib';
import JSZip from 'jszip';
import PDFDocument from 'pdfkit';
import { launchChromium } from '../../widget/browser.js';

// Real files for the extraction tests and bench, written by well-kept libraries from one outline:
// a title, then sections with a heading, paragraphs, a bulleted and a numbered list and a table.

export type Section = {
  heading: string;
  paragraphs: string[];
  bullets: string[];
  steps: string[];
  table?: { headers: string[]; rows: string[][] };
};
export type Outline = { title: string; sections: Section[] };

export const MEETING_ROOMS: Outline = {
  title: 'Meeting rooms',
  sections: [
    {
      heading: 'Booking',
      paragraphs: ['Book a room at the front desk at least one day ahead. Cancel the booking if your plans change.'],
      bullets: ['Leave the room tidy.', 'Return the key to reception.'],
      steps: ['Ask at the front desk.', 'Sign the booking sheet.'],
    },
    {
      heading: 'Rooms',
      paragraphs: ['Each room has a screen and a door code.'],
      bullets: [],
      steps: [],
      table: {
        headers: ['Room', 'Floor', 'Code'],
        rows: [
          ['Kestrel', '3', 'KES-4105'],
          ['Heron', '2', 'HER-2201'],
        ],
      },
    },
  ],
};

type PdfOptions = {
  userPassword?: string;
  textless?: boolean;
  /** Lists set as word processors set them: indented from the text, each item's bullet a character ("•") or its number. */
  indentedLists?: boolean;
  /** Lines at the top and at the bottom of every page, of its number (from 1) and the page count. */
  running?: { header?: RunningLines; footer?: RunningLines };
};

type RunningLines = (page: number, count: number) => string | string[];

export function pdfOf(outline: Outline, options: PdfOptions = {}): Promise<Uint8Array> {
  const pdf = new PDFDocument({
    info: { Title: outline.title },
    userPassword: options.userPassword,
    pdfVersion: options.userPassword ? '1.7' : '1.3',
    bufferPages: options.running !== undefined,
  });
  const done = collect(pdf);
  if (options.textless) {
    // A scan's page: a picture of the text and no text layer.
    pdf.rect(72, 72, 300, 200).fill('#555555');
  } else {
    pdf.font('Helvetica-Bold').fontSize(22).text(outline.title).moveDown(0.5);
    for (const section of outline.sections) {
      pdf.font('Helvetica-Bold').fontSize(16).text(section.heading).moveDown(0.3);
      pdf.font('Helvetica').fontSize(11);
      for (const paragraph of section.paragraphs) pdf.text(paragraph).moveDown();
      const indent = options.indentedLists ? 18 : 0;
      for (const bullet of section.bullets) pdf.text(`${options.indentedLists ? '•' : '-'} ${bullet}`, { indent });
      for (const [index, step] of section.steps.entries()) pdf.text(`${index + 1}. ${step}`, { indent });
      if (section.table) pdfTable(pdf, section.table);
      pdf.moveDown();
    }
  }
  if (options.running) pdfRunningLines(pdf, options.running);
  pdf.end();
  return done;
}

/**
 * A PDF of pages of lines as given, one under another in a fixed-width font (so lines of one
 * length reach one margin, as a paragraph's wrapped lines do); an empty line leaves a line's gap.
 * A line of two parts sets the second half a point after the first, as LaTeX sets a contents
 * entry's title after a number wider than the box for it ("10.10" before "List of tools").
 */
export function pdfOfLines(pages: (string | [string, string])[][]): Promise<Uint8Array> {
  const pdf = new PDFDocument({ autoFirstPage: false, pdfVersion: '1.3' });
  const done = collect(pdf);
  for (const lines of pages) {
    pdf.addPage().font('Courier').fontSize(11);
    lines.forEach((line, index) => {
      const [first, second] = typeof line === 'string' ? [line] : line;
      if (first) pdf.text(first, 72, 72 + index * 14, { lineBreak: false });
      if (second) pdf.text(second, 72 + pdf.widthOfString(first) + 0.5, 72 + index * 14, { lineBreak: false });
    });
  }
  pdf.end();
  return done;
}

/**
 * A PDF page set in two columns by PDFKit (its text flowing down the left column into the right)
 * under a title, with, given them, a line at its top right, one centred right under the columns
 * and one at its bottom left; then `plainPages` pages of a paragraph each across the page, in turn. A
 * `footer` sets its two parts at each page's bottom left and bottom right, of its number and the page count.
 */
export function pdfInColumns(
  title: string,
  paragraphs: string[],
  lines: { top?: string; under?: string; bottom?: string; footer?: (page: number, count: number) => [string, string] } = {},
  plainPages = 0,
): Promise<Uint8Array> {
  const pdf = new PDFDocument({ pdfVersion: '1.3' });
  const done = collect(pdf);
  const width = pdf.page.width - 144;
  const footer = (page: number) => {
    const [left, right] = lines.footer?.(page, plainPages + 1) ?? [];
    const y = pdf.page.height - 60;
    // Inside the margin, where a page's own text never goes.
    pdf.page.margins.bottom = 0;
    if (left) pdf.text(left, 72, y, { lineBreak: false });
    if (right) pdf.text(right, 72, y, { width, align: 'right', lineBreak: false });
  };
  pdf.font('Helvetica-Bold').fontSize(22).text(title).moveDown(0.5);
  const columnsTop = pdf.y;
  // As high as half the text's lines: the text fills the left column and goes on in the right.
  pdf.font('Helvetica').fontSize(10).text(paragraphs.join('\n\n'), { columns: 2, height: 140, align: 'justify' });
  if (lines.top) pdf.text(lines.top, 72, 40, { width, align: 'right', lineBreak: false });
  if (lines.under) pdf.text(lines.under, 72, columnsTop + 150, { width, align: 'center', lineBreak: false });
  if (lines.bottom) pdf.text(lines.bottom, 72, pdf.page.height - 60, { lineBreak: false });
  footer(1);
  for (let page = 2; page <= plainPages + 1; page += 1) {
    pdf.addPage().font('Helvetica').fontSize(10).text(paragraphs[(page - 2) % paragraphs.length] ?? '', 72, 72, { width });
    footer(page);
  }
  pdf.end();
  return done;
}

/**
 * A PDF page of two columns of lines as an index sets them: a line starting "# " is a heading
 * (14 pt, bold), the others are entries (10 pt) whose leaders run to their last word (the page)
 * at the gutter; a line every 15 pt down both columns, so a heading in one column stands beside
 * an entry in the other.
 */
export function pdfOfIndex(columns: [string[], string[]]): Promise<Uint8Array> {
  const pdf = new PDFDocument({ pdfVersion: '1.3' });
  const done = collect(pdf);
  const width = 225;
  columns.forEach((lines, column) =>
    lines.forEach((line, index) => {
      const heading = line.startsWith('# ');
      pdf.font(heading ? 'Helvetica-Bold' : 'Helvetica').fontSize(heading ? 14 : 10);
      const [entry, page] = [line.slice(0, line.lastIndexOf(' ')), line.slice(line.lastIndexOf(' ') + 1)];
      let text = heading ? line.slice(2) : line;
      for (let leaders = ' .'; !heading && pdf.widthOfString(`${entry}${leaders} ${page}`) <= width; leaders += ' .') text = `${entry}${leaders} ${page}`;
      pdf.text(text, 72 + column * (width + 18), 72 + index * 15, { lineBreak: false });
    }),
  );
  pdf.end();
  return done;
}

/**
 * A PDF page that is a table of two columns, `widths` wide, whose cells wrap their text within
 * them, as a word processor's table does: each row starts under the taller cell of the row
 * before. Given `prose`, a paragraph across the page stands above the table and one below it.
 */
export function pdfTableOfTwo(rows: [string, string][], widths: [number, number] = [220, 220], prose?: [string, string]): Promise<Uint8Array> {
  const pdf = new PDFDocument({ pdfVersion: '1.3' });
  const done = collect(pdf);
  const paragraph = (text: string, top: number) => pdf.font('Helvetica').fontSize(10).text(text, 72, top, { width: widths[0] + widths[1] + 20 }).y + 12;
  let y = prose ? paragraph(prose[0], 72) : 72;
  for (const [index, row] of rows.entries()) {
    pdf.font(index === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    const heights = row.map((cell, column) => pdf.heightOfString(cell, { width: widths[column] }));
    row.forEach((cell, column) => pdf.text(cell, 72 + (column === 0 ? 0 : widths[0] + 20), y, { width: widths[column] }));
    y += Math.max(...heights) + 8;
  }
  if (prose) paragraph(prose[1], y + 4);
  pdf.end();
  return done;
}

/** A PDF of an HTML page as Chromium prints it (`page.pdf()`), on paper `width` wide. */
export async function pdfPrintedByChromium(html: string, width: string): Promise<Uint8Array> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setContent(html);
    const margin = { top: '20px', right: '20px', bottom: '20px', left: '20px' };
    return new Uint8Array(await page.pdf({ width, height: '600px', margin }));
  } finally {
    await browser.close();
  }
}

function pdfRunningLines(pdf: PDFKit.PDFDocument, { header, footer }: NonNullable<PdfOptions['running']>): void {
  const { start, count } = pdf.bufferedPageRange();
  for (let index = start; index < start + count; index += 1) {
    pdf.switchToPage(index);
    // Inside the margins, where a page's own text never goes.
    pdf.page.margins.bottom = 0;
    pdf.font('Helvetica').fontSize(9);
    const [above, below] = [header, footer].map((lines) => [lines?.(index + 1, count) ?? []].flat());
    above?.forEach((line, at) => pdf.text(line, 72, 30 + at * 11, { lineBreak: false }));
    below?.forEach((line, at, all) => pdf.text(line, 72, pdf.page.height - 40 - (all.length - 1 - at) * 11, { lineBreak: false }));
  }
}

/** A table as a PDF has one: text set in columns, nothing more; its header row repeated atop each page it goes on to. */
function pdfTable(pdf: PDFKit.PDFDocument, { headers, rows }: NonNullable<Section['table']>): void {
  pdf.moveDown(0.5);
  for (const [index, row] of [headers, ...rows].entries()) {
    if (pdf.y > pdf.page.height - 100) {
      pdf.addPage();
      if (index > 0) pdfTable(pdf, { headers, rows: [] });
    }
    const y = pdf.y;
    row.forEach((cell, column) => pdf.text(cell, 72 + column * 130, y, { width: 120, lineBreak: false }));
    pdf.x = 72;
    pdf.y = y + 16;
  }
}

function collect(pdf: PDFKit.PDFDocument): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    pdf.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    pdf.on('error', reject);
  });
}

export async function docxOf(outline: Outline): Promise<Uint8Array> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const children = [
    // Word's Title style, as a document's title mostly is.
    new Paragraph({ text: outline.title, heading: HeadingLevel.TITLE }),
    ...outline.sections.flatMap((section) => [
      new Paragraph({ text: section.heading, heading: HeadingLevel.HEADING_2 }),
      ...section.paragraphs.map((paragraph) => new Paragraph(paragraph)),
      ...section.bullets.map((bullet) => new Paragraph({ text: bullet, bullet: { level: 0 } })),
      ...section.steps.map((step) => new Paragraph({ text: step, numbering: { reference: 'steps', level: 0 } })),
      ...(section.table
        ? [
            new Table({
              rows: [
                new TableRow({ tableHeader: true, children: section.table.headers.map(cell) }),
                ...section.table.rows.map((row) => new TableRow({ children: row.map(cell) })),
              ],
            }),
          ]
        : []),
    ]),
  ];
  return docxOfBody(children);
}

/**
 * A DOCX of these paragraphs and tables, given them footnotes and endnotes by number and styles;
 * its numbered lists are "steps", "1." and "a)" under it.
 */
export async function docxOfBody(children: (Paragraph | Table)[], extra: Pick<IPropertiesOptions, 'footnotes' | 'endnotes' | 'styles'> = {}): Promise<Uint8Array> {
  const levels = [
    { level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START },
    { level: 1, format: LevelFormat.LOWER_LETTER, text: '%2)', alignment: AlignmentType.START },
  ];
  const document = new Document({ numbering: { config: [{ reference: 'steps', levels }] }, ...extra, sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(document));
}

export function htmlOf(outline: Outline): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const list = (tag: string, items: string[]) => (items.length ? `<${tag}>${items.map((item) => `<li>${escape(item)}</li>`).join('')}</${tag}>` : '');
  const sections = outline.sections.map((section) => {
    const table = section.table
      ? `<table><thead><tr>${section.table.headers.map((header) => `<th>${escape(header)}</th>`).join('')}</tr></thead><tbody>${section.table.rows
          .map((row) => `<tr>${row.map((value) => `<td>${escape(value)}</td>`).join('')}</tr>`)
          .join('')}</tbody></table>`
      : '';
    return `<h2>${escape(section.heading)}</h2>${section.paragraphs.map((paragraph) => `<p>${escape(paragraph)}</p>`).join('')}${list('ul', section.bullets)}${list('ol', section.steps)}${table}`;
  });
  return `<!doctype html><html><head><title>${escape(outline.title)} | Acme</title><script>window.track("page")</script><style>body { margin: 0 }</style></head>
<body><header><a href="/">Acme home</a><nav><ul><li><a href="/rooms">All rooms</a></li><li><a href="/contact">Contact us</a></li></ul></nav></header>
<main><article><h1>${escape(outline.title)}</h1>${sections.join('\n')}</article></main>
<footer><p>Copyright Acme Corporation. <a href="/privacy">Privacy policy</a></p></footer><script>window.track("end")</script></body></html>`;
}

/**
 * A DOCX of the outline whose body repeats one paragraph until its XML is `xmlBytes` long: a few
 * kilobytes of file that unpack to far more, as a zip bomb does.
 */
export async function docxUnpackingTo(outline: Outline, xmlBytes: number): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(await docxOf(outline));
  const body = (await zip.file('word/document.xml')?.async('string')) ?? '';
  const paragraph = '<w:p><w:r><w:t>All work and no play makes a dull bot.</w:t></w:r></w:p>';
  const filler = paragraph.repeat(Math.ceil(Math.max(0, xmlBytes - body.length) / paragraph.length));
  zip.file('word/document.xml', body.replace('<w:body>', `<w:body>${filler}`));
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/**
 * A one-page PDF whose compressed content stream draws one line of text `lines` times: a few
 * kilobytes that unpack to far more text than a page holds, as a PDF bomb's content does.
 */
export function pdfDrawing(lines: number): Uint8Array {
  return onePagePdf(deflateSync(Buffer.from(`${DULL_LINE}\n`.repeat(lines))), '/FlateDecode');
}

const DULL_LINE = 'BT /F1 12 Tf 72 712 Td (All work and no play makes a dull bot.) Tj ET';

/**
 * A one-page PDF of a few kilobytes whose content stream, compressed twice, unpacks to `bytes` of
 * blank space before its one line of text: nothing a page-text limit catches, yet the whole stream
 * is held in memory as it is read, as a decompression bomb's is.
 */
export async function pdfUnpackingTo(bytes: number): Promise<Uint8Array> {
  const blank = Buffer.alloc(16 * 1024 * 1024, 0x20);
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (part: Buffer) => compressed.push(part));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  for (let written = 0; written < bytes; written += blank.length) if (!deflate.write(blank)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end(Buffer.from(DULL_LINE));
  await ended;
  return onePagePdf(deflateSync(Buffer.concat(compressed), { level: 9 }), '[/FlateDecode /FlateDecode]');
}

/** A one-page PDF whose page's content is the stream `content`, decoded by `filter`. */
function onePagePdf(content: Buffer, filter: string): Uint8Array {
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>'),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} /Filter ${filter} >>\nstream\n`), content, Buffer.from('\nendstream')]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  const parts = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]?.length ?? 0;
  objects.forEach((object, k) => {
    const part = Buffer.concat([Buffer.from(`${k + 1} 0 obj\n`), object, Buffer.from('\nendobj\n')]);
    offsets.push(length);
    parts.push(part);
    length += part.length;
  });
  const xref = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}

/** Markup a browser does not show, each part holding the word its test looks for ("Hidden…"), and panels a visitor can open, which are content. */
export const UNSHOWN = {
  html: [
    '<div hidden><p>HiddenAttribute offer.</p></div>',
    '<p style="color: red; display:none !important">HiddenDisplay offer.</p>',
    '<span style="visibility: hidden">HiddenVisibility offer.</span>',
    '<template><p>HiddenTemplate offer.</p></template>',
    // Scripts run in a visitor's browser: what it shows without them is not the page they see.
    '<noscript><p>HiddenNoscript: enable JavaScript.</p></noscript>',
    // An icon font's ligature: a word drawn as a picture.
    '<span class="material-icons" aria-hidden="true">HiddenIcon</span>',
    '<script>document.title = "HiddenScript"</script><style>.HiddenStyle { color: red }</style>',
    '<div hidden="until-found"><p>Returns are free within 30 days.</p></div>',
    '<button aria-controls="care">Care</button><div id="care" hidden><p>Dust the shade with a dry cloth.</p></div>',
    '<div role="tabpanel" style="display: none"><p>Made in Porto.</p></div>',
  ].join(''),
  words: ['HiddenAttribute', 'HiddenDisplay', 'HiddenVisibility', 'HiddenTemplate', 'HiddenNoscript', 'HiddenIcon', 'HiddenScript', 'HiddenStyle'],
  opened: ['Returns are free within 30 days.', 'Dust the shade with a dry cloth.', 'Made in Porto.'],
};
