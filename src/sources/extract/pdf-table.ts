import { PARAGRAPH_GAP, rowsOf, rowSize, type Placed } from './pdf-rows.js';

// Two columns side by side are a table, not running text, where their cells start at one
// baseline: every paragraph of either side starts beside one of the other side's, in three rows
// at least. Amid columns of prose, in some row but the last the two cells must end on different
// lines too: two columns of prose whose paragraphs happened to start beside each other, spaced
// alike, would end them alike (the last row aside: a page's text may stop anywhere in its right
// column). A table is read a row a line, so a row's two cells are never read apart.

/** Rows a table has at least (a header and two more). */
const MIN_ROWS = 3;

/** A table row: its cells, left to right, each its lines, each its items. */
export type TableRow = Placed[][][];

/** The rows of the table two sides of a gutter make; undefined unless they make one. */
export function tableRows(left: Placed[], right: Placed[], { amidProse }: { amidProse: boolean }): TableRow[] | undefined {
  const sides = [rowsOf(left), rowsOf(right)];
  const [leftStarts = [], rightStarts = []] = sides.map(paragraphStarts);
  if (leftStarts.length < MIN_ROWS || leftStarts.length !== rightStarts.length) return undefined;
  if (!leftStarts.every((start, index) => besides(start, rightStarts[index]))) return undefined;
  const tops = leftStarts.map(({ y }) => y);
  const rows = tops.map((top, index) => sides.map((lines) => lines.filter((line) => within(line, top, tops[index + 1]))));
  const endApart = rows.slice(0, -1).some(([leftCell = [], rightCell = []]) => leftCell.length !== rightCell.length);
  return endApart || !amidProse ? rows : undefined;
}

/** A side's first line and each line further below the one before than a paragraph's gap. */
function paragraphStarts(lines: Placed[][]): { y: number; size: number }[] {
  return lines
    .filter((line, index) => {
      const above = lines[index - 1];
      return !above || baseline(above) - baseline(line) > PARAGRAPH_GAP * Math.max(rowSize(above), rowSize(line));
    })
    .map((line) => ({ y: baseline(line), size: rowSize(line) }));
}

/** Whether two lines stand at one baseline, as rows tell it (pdf-rows.ts). */
const besides = (one: { y: number; size: number }, other: { y: number; size: number } | undefined): boolean =>
  other !== undefined && Math.abs(one.y - other.y) <= Math.max(one.size, other.size) / 2;

/** Whether a line lies in the row from `top` down to the next row's top. */
const within = (line: Placed[], top: number, nextTop: number | undefined): boolean =>
  baseline(line) <= top + rowSize(line) / 2 && (nextTop === undefined || baseline(line) > nextTop + rowSize(line) / 2);

const baseline = (line: Placed[]): number => line[0]?.y ?? 0;
