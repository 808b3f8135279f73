import { MIN_ENTRIES } from './contents-title.js';
import { endsInPages, leadsToPage } from './contents.js';

// The lines of an index or a table of contents: each ends in the page it refers to, and is a line
// of its own, never wrapped prose, though the longest entries reach the margin as wrapped lines do
// (so the entry under one was joined to it, and a column of entries made one paragraph).

/**
 * The lines (in reading order) that are entries: those with leaders, and those of a run of
 * MIN_ENTRIES lines at least ending in a page. A heading (an index's letter) does not end a run.
 */
export function indexEntries<Line extends { text: string }>(lines: Line[], isHeading: (line: Line) => boolean): Set<Line> {
  const entries = new Set<Line>();
  let run: Line[] = [];
  const close = () => {
    if (run.length >= MIN_ENTRIES) for (const line of run) entries.add(line);
    run = [];
  };
  for (const line of lines) {
    if (isHeading(line)) continue;
    const leaders = leadsToPage(line.text);
    if (leaders) entries.add(line);
    if (endsInPages(line.text)) run.push(line);
    else close();
  }
  close();
  return entries;
}
