import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import { describe, expect, it, vi } from 'vitest';
import { withBullets } from '../../../src/sources/extract/pdf-bullets.js';

// A page's lines as pdf.ts reads them (11 pt, body text at 72 pt from the left), and a page whose
// drawing is a disc beside each line at `discYs`, as Chromium draws a list's bullets.

const line = (text: string, y: number, left = 72) => ({ text, y, left, size: 11, tableRow: false });

function pageWithDiscs(...discYs: number[]) {
  const discs = discYs.map((y) => [OPS.fill, [], [80, y + 3, 84, y + 7]]);
  const getOperatorList = vi.fn(async () => ({ fnArray: discs.map(() => OPS.constructPath), argsArray: discs }));
  return { page: { getOperatorList } as unknown as PDFPageProxy, getOperatorList };
}

describe('withBullets', () => {
  it('reads no drawing of a page whose indented lines mark their items by their own text, as a word processor’s lists do', async () => {
    // Every page with a list read its drawing, about as long as reading its text again.
    const { page, getOperatorList } = pageWithDiscs(700, 686);
    const lines = [line('Opening hours', 720), line('• Weekdays 9-17', 700, 90), line('1. Ring the bell.', 686, 90), line('a) Wait.', 672, 90), line('Welcome.', 658)];
    const bulleted = await withBullets(page, lines);
    expect(bulleted.map((each) => each.text)).toEqual(['Opening hours', '- Weekdays 9-17', '1. Ring the bell.', 'a) Wait.', 'Welcome.']);
    expect(getOperatorList).not.toHaveBeenCalled();
  });

  it('reads the drawing of a page with an indented line marked by nothing but a shape, and marks no line with a marker of its own', async () => {
    const { page, getOperatorList } = pageWithDiscs(700, 686);
    const bulleted = await withBullets(page, [line('Opening hours', 720), line('Weekdays 9-17', 700, 90), line('1. Ring the bell.', 686, 90)]);
    expect(bulleted.map((each) => each.text)).toEqual(['Opening hours', '- Weekdays 9-17', '1. Ring the bell.']);
    expect(getOperatorList).toHaveBeenCalledTimes(1);
  });
});
