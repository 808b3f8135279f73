import { CELL_GAP, rightOf, rowsOf, rowSize, type Placed } from './pdf-rows.js';
import { tableRows, type TableRow } from './pdf-table.js';

// A page set in two columns is read a column at a time. PDF.js gives text where it stands, and
// the rows of a page across both columns would join each line of the left column to the right
// column's line beside it. Two columns are a wide vertical gap, the gutter, near the middle of
// the text, which most lines leave free, with prose on either side: a table's columns hold short
// cells (and a row of three has two gaps), so a table is still read row by row, and so is every
// page without such a gap. A line across the gutter (a title over both columns, a centred page
// number) and a tall space (a footer under them) end a band of columns: the page is read band by
// band, each band left column first, from its first line with text on both sides (a running
// header above it, on one side, is read before). A table of two columns whose cells wrap their
// text (pdf-table.ts) is read a row at a time: a band of such a page, or, on a page that is not
// in columns, rows whose cells stand apart at one gutter, with prose above or below them.

/** The gutter's middle lies within this share of the text's width either side of its centre. */
const GUTTER_SPREAD = 0.25;
/** At most this share of a page's lines cross the gutter. */
const MAX_CROSSING = 1 / 3;
/** Lines each column holds at least. */
const MIN_COLUMN_LINES = 3;
/** Characters a column's lines hold on average at least: prose, not a table's cells. */
const MIN_COLUMN_CHARS = 20;
/** The share of a column's lines at most that are apart in cells themselves. */
const MAX_CELLED = 1 / 4;
/** Rows further apart than this many font sizes are in different bands. */
const BAND_GAP = 3;
/** Rows at most under a table, left of its gutter or right of it, before the prose that crosses it (each tried, a page may have hundreds). */
const MAX_TRAILING_ROWS = 3;

/**
 * Lines to read one after the other, and the right edge of their column (none for a line across
 * the page); or the rows of a table.
 */
export type Run = { rows: Placed[][]; margin?: number } | { table: TableRow[] };

/**
 * The page's rows in reading order, a column at a time, a table of two columns a row at a time;
 * undefined unless the page is set in two columns or holds such a table.
 */
export function columnRuns(rows: Placed[][]): Run[] | undefined {
  const parts = new Map(rows.map((row) => [row, partsOf(row)]));
  const columns = gutterOf(rows, parts);
  return columns?.prose ? proseRuns(rows, parts, columns.gutter) : tableRuns(rows, parts);
}

/** A page in two columns of prose, band by band, each a column at a time (or a row at a time, a table). */
function proseRuns(rows: Placed[][], parts: Map<Placed[], Part[]>, gutter: number): Run[] {
  const crosses = (row: Placed[]) => !isFree(parts.get(row) ?? [], gutter);
  const runs: Run[] = [];
  let band: Placed[][] = [];
  const flush = () => {
    const sides = [band.flat().filter((entry) => entry.x < gutter), band.flat().filter((entry) => entry.x >= gutter)] as const;
    const table = band.length > 1 ? tableRows(...sides, { amidProse: true }) : undefined;
    // A band of one row has no columns to read: a running header over a page's columns ("Debian
    // Reference 83 / 233"), read a side at a time, would be two lines, each too short to recur.
    if (band.length === 1) runs.push({ rows: band });
    else if (table) runs.push({ table });
    else for (const side of sides) if (side.length > 0) runs.push(runOf(side));
    band = [];
  };
  let above: Placed[] | undefined;
  /** Whether the band has a row with text on both sides of the gutter: its columns start there. */
  let started = false;
  for (const row of rows) {
    const across = crosses(row);
    if ((above && apart(above, row)) || across) {
      flush();
      started = false;
    }
    if (!across) started ||= row.some((entry) => entry.x < gutter) && row.some((entry) => entry.x >= gutter);
    // A line across the gutter, or above the columns (a running header, a page number), is read as it stands.
    if (across || !started) runs.push({ rows: [row] });
    else band.push(row);
    above = row;
  }
  flush();
  return runs;
}

/**
 * A page's rows, a table of two columns at a time where it has one, else a row at a time;
 * undefined without such a table.
 */
function tableRuns(rows: Placed[][], parts: Map<Placed[], Part[]>): Run[] | undefined {
  const runs: Run[] = [];
  let tables = 0;
  for (let start = 0; start < rows.length; ) {
    const table = tableFrom(rows, parts, start);
    runs.push(table ? { table: table.rows } : { rows: rows.slice(start, start + 1) });
    tables += table ? 1 : 0;
    start = table?.end ?? start + 1;
  }
  return tables > 0 ? runs : undefined;
}

/**
 * The table of two columns that starts at rows[start], and the index of the row after it: its
 * gutter lies where that row's second part starts, and its rows are those under it that leave the gutter
 * free, less a few at its end (a short line of prose under it) that would keep it from being one.
 */
function tableFrom(rows: Placed[][], parts: Map<Placed[], Part[]>, start: number): { rows: TableRow[]; end: number } | undefined {
  const [left, right, ...more] = parts.get(rows[start] ?? []) ?? [];
  if (!left || !right || more.length > 0) return undefined;
  // Where its right column starts: the left column's longer cells may reach past the first row's.
  const gutter = right.from;
  let end = start + 1;
  for (let row = rows[end]; row && isFree(parts.get(row) ?? [], gutter) && !apart(rows[end - 1] ?? row, row); row = rows[end]) end += 1;
  for (const last = end; end > start + 1 && last - end <= MAX_TRAILING_ROWS; end -= 1) {
    const items = rows.slice(start, end).flat();
    const table = tableRows(
      items.filter(({ x }) => x < gutter),
      items.filter(({ x }) => x >= gutter),
      { amidProse: false },
    );
    if (table) return { rows: table, end };
  }
  return undefined;
}

/** Whether two rows, one above the other, are further apart than a band's rows are. */
const apart = (above: Placed[], row: Placed[]): boolean => (above[0]?.y ?? 0) - (row[0]?.y ?? 0) > BAND_GAP * Math.max(rowSize(above), rowSize(row));

function runOf(side: Placed[]): Run {
  return { rows: rowsOf(side), margin: greatest(side.map(rightOf)) };
}

/**
 * Where the gutter of a page in two columns is: the x in the middle of the text that fewest rows
 * cover, when no more than MAX_CROSSING of them do, and those that leave it free stay further
 * apart there than cells (CELL_GAP); and whether both sides hold columns of prose.
 */
function gutterOf(rows: Placed[][], parts: Map<Placed[], Part[]>): { gutter: number; prose: boolean } | undefined {
  const gutter = leastCovered([...parts.values()].flat());
  if (gutter === undefined) return undefined;
  const free = [...parts.values()].filter((row) => isFree(row, gutter));
  if (free.length < rows.length * (1 - MAX_CROSSING)) return undefined;
  const left = free.map((row) => row.filter(({ to }) => to <= gutter)).filter((side) => side.length > 0);
  const right = free.map((row) => row.filter(({ from }) => from >= gutter)).filter((side) => side.length > 0);
  const size = median(rows.flat().map((entry) => entry.size));
  const width = least(right.flat().map(({ from }) => from)) - greatest(left.flat().map(({ to }) => to));
  return width > CELL_GAP * size ? { gutter, prose: isColumn(left) && isColumn(right) } : undefined;
}

const isFree = (row: Part[], gutter: number) => row.every(({ from, to }) => to <= gutter || from >= gutter);

/** A stretch of a row's text, and the size of its last item. */
type Part = { from: number; to: number; chars: number; size: number };

/**
 * A row's parts: its items, those no further apart than cells are joined. Apart by the smaller of
 * two neighbours' sizes, so a column's heading beside the other column's line stays apart from it.
 */
function partsOf(row: Placed[]): Part[] {
  const parts: Part[] = [];
  for (const entry of row) {
    const last = parts.at(-1);
    if (last && entry.x - last.to <= CELL_GAP * Math.min(last.size, entry.size)) {
      last.to = Math.max(last.to, rightOf(entry));
      last.chars += entry.item.str.length;
      last.size = entry.size;
    } else parts.push({ from: entry.x, to: rightOf(entry), chars: entry.item.str.length, size: entry.size });
  }
  return parts;
}

/** The x, within GUTTER_SPREAD of the text's centre, that the fewest parts cover (the widest such stretch's middle). */
function leastCovered(parts: Part[]): number | undefined {
  if (parts.length === 0) return undefined;
  const start = least(parts.map(({ from }) => from));
  const width = greatest(parts.map(({ to }) => to)) - start;
  const [low, high] = [start + width * (0.5 - GUTTER_SPREAD), start + width * (0.5 + GUTTER_SPREAD)];
  const edges = parts.flatMap(({ from, to }) => [{ x: from, step: 1 }, { x: to, step: -1 }]).sort((a, b) => a.x - b.x || a.step - b.step);
  let best: { covered: number; from: number; to: number } | undefined;
  let covered = 0;
  for (const [index, edge] of edges.entries()) {
    covered += edge.step;
    const [from, to] = [Math.max(edge.x, low), Math.min(edges[index + 1]?.x ?? edge.x, high)];
    if (to <= from) continue;
    if (!best || covered < best.covered || (covered === best.covered && to - from > best.to - best.from)) best = { covered, from, to };
  }
  return best && (best.from + best.to) / 2;
}

/** Whether one side's rows make a column of prose: enough lines, long enough, hardly any apart in cells. */
function isColumn(side: Part[][]): boolean {
  const chars = side.reduce((sum, row) => sum + row.reduce((rowSum, part) => rowSum + part.chars, 0), 0);
  const celled = side.filter((row) => row.length > 1).length;
  return side.length >= MIN_COLUMN_LINES && chars / side.length >= MIN_COLUMN_CHARS && celled <= side.length * MAX_CELLED;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

// Of many values: more than a call's arguments (Math.max(...values)) may be.
const greatest = (values: number[]): number => values.reduce((most, value) => Math.max(most, value), -Infinity);
const least = (values: number[]): number => values.reduce((fewest, value) => Math.min(fewest, value), Infinity);
