import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';

// A list's bullets in a PDF. Chromium (a page printed to PDF) draws a bullet as a shape, a disc or
// a square, not as a character: the text layer has the items without their bullets, so an item
// reaching the margin ran on into the next as wrapped prose does. An item's line starts "- " where
// a small shape stands just left of it, level with its letters; a bullet set as a character ("•",
// or a symbol font's, "", as Word's PDFs have it) is written "- " too.

/** A line as the bullets are matched to it: its baseline `y`, its text's left edge and size. */
type Line = { text: string; y: number; left: number; size: number; tableRow: boolean };
type Box = { left: number; right: number; bottom: number; top: number };
type Matrix = [number, number, number, number, number, number];

const PAINTS = new Set<number>([OPS.stroke, OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
/** A bullet set as a character: a bullet, a circle, a square, a triangle, a hyphen bullet, a symbol font's private-use bullet. */
const BULLET_CHARACTER = /^[•◦▪▫■□●○‣⁃\uF0A7\uF0B7]\s*/u;

/** A list item marked by its own text: a hyphen, a number, a letter ("- ", "1.", "a)"). */
const OWN_MARKER = /^(?:[-–*+]|\d{1,3}[.)]|\(?[a-zA-Z][.)])\s/;

/**
 * The page's lines, each a bullet stands beside starting "- ". Reading a page's drawing takes
 * about as long as reading its text again, so only a page with a line a drawn bullet may mark
 * has it read: a line indented from the text's left edge, where a list's items stand, that is no
 * table row and has no marker of its own. A word processor's lists (their bullet a character,
 * their numbers text) need no drawing.
 */
export async function withBullets<L extends Line>(page: PDFPageProxy, lines: L[]): Promise<L[]> {
  const textLeft = Math.min(...lines.map((line) => line.left));
  const unmarked = (line: Line) => !line.tableRow && !BULLET_CHARACTER.test(line.text) && !OWN_MARKER.test(line.text);
  const bulletable = lines.some((line) => unmarked(line) && line.left > textLeft + line.size);
  const bullets = bulletable ? smallShapes(await page.getOperatorList()) : [];
  return lines.map((line) => {
    if (BULLET_CHARACTER.test(line.text)) return { ...line, text: line.text.replace(BULLET_CHARACTER, '- ') };
    return unmarked(line) && bullets.some((bullet) => besideLine(bullet, line)) ? { ...line, text: `- ${line.text}` } : line;
  });
}

/** A bullet beside a line: no taller than its letters, up to two letters' widths left of it, its middle between the line's baseline and its letters' top. */
function besideLine(bullet: Box, line: Line): boolean {
  const middle = (bullet.top + bullet.bottom) / 2;
  return bullet.top - bullet.bottom <= line.size * 0.7 && bullet.right <= line.left && line.left - bullet.right <= line.size * 2 && middle >= line.y && middle <= line.y + line.size * 0.8;
}

/** The boxes of the filled or stroked shapes on the page small enough to be a bullet: a point or two to ten points wide, about as high. */
function smallShapes({ fnArray, argsArray }: { fnArray: number[]; argsArray: unknown[] }): Box[] {
  const boxes: Box[] = [];
  const saved: Matrix[] = [];
  let matrix: Matrix = [1, 0, 0, 1, 0, 0];
  fnArray.forEach((operation, index) => {
    const args = argsArray[index] as unknown[];
    if (operation === OPS.save) saved.push(matrix);
    else if (operation === OPS.restore) matrix = saved.pop() ?? matrix;
    else if (operation === OPS.transform) matrix = multiplied(args as Matrix, matrix);
    else if (operation === OPS.constructPath && PAINTS.has(args[0] as number)) {
      const box = placedBox(Array.from(args[2] as ArrayLike<number>), matrix);
      const [width, height] = [box.right - box.left, box.top - box.bottom];
      if (width >= 1 && width <= 10 && height >= 1 && height <= 10 && width <= height * 2 && height <= width * 2) boxes.push(box);
    }
  });
  return boxes;
}

/** The current transformation `by` as a PDF's `cm` operator of these six numbers changes it. */
function multiplied([a, b, c, d, e, f]: Matrix, by: Matrix): Matrix {
  const [a2, b2, c2, d2, e2, f2] = by;
  return [a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2, e * b2 + f * d2 + f2];
}

/** A path's bounding box, `[minX, minY, maxX, maxY]` where it was drawn, on the page. */
function placedBox([minX = 0, minY = 0, maxX = 0, maxY = 0]: number[], [a, b, c, d, e, f]: Matrix): Box {
  const corners = [[minX, minY], [minX, maxY], [maxX, minY], [maxX, maxY]].map(([x = 0, y = 0]) => [a * x + c * y + e, b * x + d * y + f] as const);
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  return { left: Math.min(...xs), right: Math.max(...xs), bottom: Math.min(...ys), top: Math.max(...ys) };
}
