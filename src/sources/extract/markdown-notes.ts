import { Marked, type TokenizerAndRendererExtension } from 'marked';
import { htmlFragmentText } from './html.js';
import { oneLine } from './structured-text.js';

// Markdown with its footnotes (`price[^1]`, `[^1]: Prices include VAT.`), which marked would leave
// literal, as structured text. A reference goes from its sentence, and its note follows the
// paragraph (list, table) that first cites it, as `Note: Prices include VAT.`: the chunk holding
// the paragraph then holds what qualifies it, which a note at the file's end, a chunk of its own,
// would not, and a reader meets the note where it applies. A note nothing cites is dropped, as
// GitHub shows none.

/** Where a note is cited, by its number: characters of Unicode's private use, which no text has. */
const mark = (note: number) => `\uE000${note}\uE001`;
const MARK = / ?\uE000(\d+)\uE001/g;
/** `[^label]: text`, its text going on in indented lines (a blank line between them or not). */
const DEFINITION = /^\[\^([^\]\s]+)\]:[ \t]*([^\n]*(?:\n+[ \t]+\S[^\n]*)*)/;
const REFERENCE = /^\[\^([^\]\s]+)\]/;

/** Markdown (GitHub's flavour, tables included) as structured text, its footnotes placed. */
export function markdownText(markdown: string): string {
  /** Each note's Markdown by its label, in the order they are defined. */
  const notes = new Map<string, string>();
  const parser = new Marked({ gfm: true, extensions: footnotes(notes) });
  const text = htmlFragmentText(parser.parse(markdown, { async: false }));
  const noteTexts = Array.from(notes.values(), (note) => oneLine(htmlFragmentText(parser.parseInline(note, { async: false })).replace(MARK, '')));
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
      start: (source) => source.indexOf('[^') >= 0 ? source.indexOf('[^') : undefined,
      // Inline text is read once every block is: each definition is known by then.
      tokenizer(source) {
        const [raw, label = ''] = REFERENCE.exec(source) ?? [];
        const note = [...notes.keys()].indexOf(label.toLowerCase());
        return raw && note >= 0 ? { type: 'footnoteReference', raw, note } : undefined;
      },
      renderer: (token) => mark(token['note'] as number),
    },
  ];
}

/** The text without its notes' marks, each note after the block (paragraph, list, table) that first cites it. */
function placeNotes(text: string, notes: string[]): string {
  const placed = new Set<number>();
  const blocks = text.split('\n\n').flatMap((block) => {
    const cited = [...new Set(Array.from(block.matchAll(MARK), (found) => Number(found[1])))].filter((note) => !placed.has(note));
    for (const note of cited) placed.add(note);
    return [block.replace(MARK, ''), ...cited.map((note) => `Note: ${notes[note] ?? ''}`)];
  });
  return blocks.filter(Boolean).join('\n\n');
}
