import { performance } from 'node:perf_hooks';
import { extractFile } from '../src/sources/extract/index.js';
import { docxOf, htmlOf, MEETING_ROOMS, pdfOf, type Outline } from '../test/sources/extract/documents.js';
import { median } from './load.js';
import type { BenchOptions, Figure, Section } from './section.js';
import { generateText } from './text.js';

// File extraction's throughput (MB of file read per second, through extractFile and so its child
// process) for PDF, DOCX and HTML documents of a few MB made from one outline (headings,
// paragraphs, lists, tables), against JSON.parse of a JSON text of the same size.

const SECTION_CHARS = 3_000;

/** An outline of about `chars` characters: sections of generated paragraphs, lists and a table. */
function outlineOf(chars: number): Outline {
  const sections = Array.from({ length: Math.ceil(chars / SECTION_CHARS) }, (_, index) => ({
    heading: `Section ${index + 1}`,
    paragraphs: generateText(SECTION_CHARS - 500, index + 1).split('\n\n'),
    bullets: ['Keep the receipt.', 'Ask the front desk.'],
    steps: ['Fill in the form.', 'Send it to the office.'],
    table: { headers: ['Room', 'Floor', 'Code'], rows: [['Kestrel', String(index % 9), `KES-${index}`], ['Heron', '2', `HER-${index}`]] },
  }));
  return { title: 'Bench handbook', sections };
}

/** JSON.parse's throughput on a JSON text of about `bytes` bytes, in MB/s, parsed for at least 200 ms. */
function jsonMegabytesPerSecond(bytes: number): number {
  const json = JSON.stringify({ text: generateText(bytes) });
  let parsed = 0;
  const start = performance.now();
  while (performance.now() - start < 200) {
    JSON.parse(json);
    parsed += json.length;
  }
  return megabytesPerSecond(parsed, performance.now() - start);
}

function megabytesPerSecond(bytes: number, ms: number): number {
  return bytes / 1024 / 1024 / (ms / 1000);
}

async function run({ quick }: BenchOptions): Promise<Figure[]> {
  const runs = quick ? 1 : 3;
  const outline = outlineOf(quick ? 600_000 : 3_000_000);
  const files = {
    PDF: await pdfOf(outline),
    'PDF, indented lists': await pdfOf(outline, { indentedLists: true }),
    DOCX: await docxOf(outline),
    HTML: new TextEncoder().encode(htmlOf(outline)),
  };
  // The reading process starts, and loads each library, once: not part of a file's time.
  await Promise.all([pdfOf(MEETING_ROOMS), docxOf(MEETING_ROOMS)].map(async (file) => extractFile(await file)));
  await extractFile(new TextEncoder().encode(htmlOf(MEETING_ROOMS)));

  const figures: Figure[] = [];
  for (const [name, bytes] of Object.entries(files)) {
    const rates: number[] = [];
    const baselines: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const start = performance.now();
      await extractFile(bytes);
      rates.push(megabytesPerSecond(bytes.length, performance.now() - start));
      baselines.push(jsonMegabytesPerSecond(bytes.length));
    }
    figures.push({
      name: `${name}, ${(bytes.length / 1024 / 1024).toFixed(1)} MB`,
      value: median(rates),
      unit: 'MB/s',
      baseline: 'JSON.parse, same size',
      baselineValue: median(baselines),
    });
  }
  return figures;
}

export const extractionSection: Section = { name: 'Extraction (files to structured text)', run };
