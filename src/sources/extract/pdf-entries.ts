// The lines of an index or a table of contents: each ends in the page it refers to, and is a line
// of its own, never wrapped prose, though the longest entries reach the margin as wrapped lines do
// (so the entry under one was joined to it, and a column of entries made one paragraph).

/** Dot leaders running to a page: "Returns ........ 12", "Preface . . . . vii". */
const LEADERS_TO_PAGE = /(?:\.\s?){3,}\s*(?:\d{1,4}|[ivxlcdm]{1,7})$/i;
/** A line of words ending in page references: "Shipping 4", "Returns 12–14", "Lamps 4, 7", "Lamps sold before 2024 15". */
const ENDS_IN_PAGES = /\p{L}.*\s\d{1,4}(?:[–-]\d{1,4})?(?:,\s?\d{1,4}(?:[–-]\d{1,4})?)*$/u;
/** Lines ending in a page, one after the other, that make an index without leaders: prose's wrapped lines hardly ever end so three times running. */
const MIN_ENTRIES = 3;

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
    const leaders = LEADERS_TO_PAGE.test(line.text);
    if (leaders) entries.add(line);
    if (leaders || ENDS_IN_PAGES.test(line.text)) run.push(line);
    else close();
  }
  close();
  return entries;
}
