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
// header above it, on one side, is read before). A band that is a table of two columns whose
// cells wrap their text (pdf-table.ts) is read a row at a time instead, whether its sides read as
// columns of prose or not (a column of short labels), its gutter found anywhere across the text.

/** The gutter's middle lies within this share of the text's width either side of its centre. */
const GUTTER_SPREAD = 0.25;
/** A table's gutter may lie anywhere across it: a column of short labels beside one of long cells. */
const TABLE_GUTTER_SPREAD = 0.5;
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
  const middle = gutterOf(rows, parts, GUTTER_SPREAD);
  const prose = middle?.prose ?? false;
  const gutter = prose ? middle?.gutter : gutterOf(rows, parts, TABLE_GUTTER_SPREAD)?.gutter;
  if (gutter === undefined) return undefined;
  const crosses = (row: Placed[]) => !isFree(parts.get(row) ?? [], gutter);
  const runs: Run[] = [];
  let tables = 0;
  let band: [Placed[], Placed[]] = [[], []];
  const flush = () => {
    const table = tableRows(...band);
    if (table) {
      runs.push({ table });
      tables += 1;
    } else if (prose) {
      for (const side of band) if (side.length > 0) runs.push(runOf(side));
    } else if (band.flat().length > 0) runs.push({ rows: rowsOf(band.flat()) });
    band = [[], []];
  };
  let above: Placed[] | undefined;
  /** Whether the band has a row with text on both sides of the gutter: its columns start there. */
  let started = false;
  for (const row of rows) {
    const across = crosses(row);
    const apart = above !== undefined && (above[0]?.y ?? 0) - (row[0]?.y ?? 0) > BAND_GAP * Math.max(rowSize(above), rowSize(row));
    if (apart || across) {
      flush();
      started = false;
    }
    const sides = [row.filter((entry) => entry.x < gutter), row.filter((entry) => entry.x >= gutter)];
    if (!across) started ||= sides.every((side) => side.length > 0);
    // A line across the gutter, or above the columns (a running header, a page number), is read as it stands.
    if (across || !started) runs.push({ rows: [row] });
    else sides.forEach((side, index) => band[index]?.push(...side));
    above = row;
  }
  flush();
  return prose || tables > 0 ? runs : undefined;
}

function runOf(side: Placed[]): Run {
  return { rows: rowsOf(side), margin: greatest(side.map(rightOf)) };
}

/**
 * Where the gutter of a page in two columns is: the x, within `spread` of the text's width of its
 * centre, that fewest rows cover, when no more than MAX_CROSSING of them do, and those that leave
 * it free stay further apart there than cells (CELL_GAP); and whether both sides hold columns of
 * prose.
 */
function gutterOf(rows: Placed[][], parts: Map<Placed[], Part[]>, spread: number): { gutter: number; prose: boolean } | undefined {
  const gutter = leastCovered([...parts.values()].flat(), spread);
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

/** The x, within `spread` of the text's width of its centre, that the fewest parts cover (the widest such stretch's middle). */
function leastCovered(parts: Part[], spread: number): number | undefined {
  if (parts.length === 0) return undefined;
  const start = least(parts.map(({ from }) => from));
  const width = greatest(parts.map(({ to }) => to)) - start;
  const [low, high] = [start + width * (0.5 - spread), start + width * (0.5 + spread)];
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
