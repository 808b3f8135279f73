// Notes (a Markdown or DOCX file's footnotes, a DOCX's endnotes) read into the text: a reference
// goes from its sentence, and its note follows the paragraph (list, table) that first cites it, as
// `Note: Prices include VAT.`: the chunk holding the paragraph then holds what qualifies it, which
// a note at the file's end, a chunk of its own, would not, and a reader meets the note where it
// applies. A note nothing cites is dropped, as GitHub shows none.

/** Where a note is cited, by its number: characters of Unicode's private use, which no text has. */
export const noteMark = (note: number) => `\uE000${note}\uE001`;
/** A note's mark with the space before it, which goes with it. */
export const NOTE_MARK = / ?\uE000(\d+)\uE001/g;

/** The text without its notes' marks, each note (by its number) after the block (paragraph, list, table) that first cites it. */
export function placeNotes(text: string, notes: string[]): string {
  const placed = new Set<number>();
  const blocks = text.split('\n\n').flatMap((block) => {
    const cited = [...new Set(Array.from(block.matchAll(NOTE_MARK), (found) => Number(found[1])))].filter((note) => !placed.has(note));
    for (const note of cited) placed.add(note);
    return [block.replace(NOTE_MARK, ''), ...cited.map((note) => `Note: ${notes[note] ?? ''}`)];
  });
  return blocks.filter(Boolean).join('\n\n');
}
