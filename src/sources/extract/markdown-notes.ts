import { Marked, type TokenizerAndRendererExtension } from 'marked';
import { htmlFragmentText } from './html.js';
import { NOTE_MARK, noteMark, placeNotes } from './notes.js';
import { oneLine } from './structured-text.js';

// Markdown with its footnotes (`price[^1]`, `[^1]: Prices include VAT.`), which marked would leave
// literal, as structured text, each note placed after the paragraph that first cites it (notes.ts).

/** `[^label]: text`, its text going on in indented lines (a blank line between them or not). */
const DEFINITION = /^\[\^([^\]\s]+)\]:[ \t]*([^\n]*(?:\n+[ \t]+\S[^\n]*)*)/;
const REFERENCE = /^\[\^([^\]\s]+)\]/;

/** Markdown (GitHub's flavour, tables included) as structured text, its footnotes placed. */
export function markdownText(markdown: string): string {
  /** Each note's Markdown by its label, in the order they are defined. */
  const notes = new Map<string, string>();
  // A file without "[^" has no footnotes, and is read without the extension, whose start looks
  // through the rest of the file for a definition from every paragraph: the square of its length
  // (a file of 1 MB of short paragraphs spent 4 of its 5 seconds there).
  const parser = new Marked({ gfm: true, ...(markdown.includes('[^') ? { extensions: footnotes(notes) } : {}) });
  const text = htmlFragmentText(parser.parse(markdown, { async: false }));
  const noteTexts = Array.from(notes.values(), (note) => oneLine(htmlFragmentText(parser.parseInline(note, { async: false })).replace(NOTE_MARK, '')));
  return placeNotes(text, noteTexts);
}

function footnotes(notes: Map<string, string>): TokenizerAndRendererExtension[] {
  return [
    {
      name: 'footnoteDefinition',
      level: 'block',
      start: (source) => /^\[\^/m.exec(source)?.index,
      tokenizer(source) {
        const [raw, label = '', note = ''] = DEFINITION.exec(source) ?? [];
        if (!raw) return undefined;
        const key = label.toLowerCase();
        if (!notes.has(key)) notes.set(key, note.replace(/\s+/g, ' ').trim());
        return { type: 'footnoteDefinition', raw };
      },
      renderer: () => '',
    },
    {
      name: 'footnoteReference',
      level: 'inline',
      // No start: marked's inline text ends before every "[", where this tokenizer is tried, and
      // looking ahead for "[^" from each piece of text read a line's rest again each time (a line
      // of 64,000 characters of "[a](" took 11 seconds). Inline text is read once every block is:
      // each definition is known by then.
      tokenizer(source) {
        const [raw, label = ''] = REFERENCE.exec(source) ?? [];
        const note = [...notes.keys()].indexOf(label.toLowerCase());
        return raw && note >= 0 ? { type: 'footnoteReference', raw, note } : undefined;
      },
      renderer: (token) => noteMark(token['note'] as number),
    },
  ];
}
