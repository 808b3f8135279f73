import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';

// A PDF page's text items where they stand, and the rows they make: items whose baselines are
// within half a line of each other are one line of text (so a table row stays on one line).

/** Text items further apart than this many font sizes are cells of a table row (or columns). */
export const CELL_GAP = 1.5;

/** A paragraph starts where lines are further apart than this many line heights. */
export const PARAGRAPH_GAP = 1.6;

/** A text item, its baseline's start (x, y) and its font size. */
export type Placed = { item: TextItem; x: number; y: number; size: number };

export function placed(items: TextItem[]): Placed[] {
  return items.map((item) => ({ item, x: item.transform[4] as number, y: item.transform[5] as number, size: Math.abs(item.height) || Math.abs(item.transform[3] as number) }));
}

/** The items' rows, top to bottom, each left to right. */
export function rowsOf(items: Placed[]): Placed[][] {
  const rows: Placed[][] = [];
  for (const entry of [...items].sort((a, b) => b.y - a.y || a.x - b.x)) {
    const row = rows.at(-1);
    const first = row?.[0];
    if (row && first && Math.abs(first.y - entry.y) <= Math.max(first.size, entry.size) / 2) row.push(entry);
    else rows.push([entry]);
  }
  return rows.map((row) => row.sort((a, b) => a.x - b.x));
}

export const rightOf = (entry: Placed): number => entry.x + entry.item.width;

export const rowSize = (row: Placed[]): number => Math.max(...row.map((entry) => entry.size));
