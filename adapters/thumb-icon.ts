// The thumb that rates an answer, drawn alike in the website widget and the console: kept here,
// where both may import it (adapters do not import each other), as data that each draws its own
// way (the widget by DOM calls, the console in JSX).

/** A thumb, pointing up (after Feather's thumbs-up, MIT). */
export const THUMB_PATH =
  'M14 9V5a3 3 0 0 0-3-3l-4 9v11h11.28a2 2 0 0 0 2-1.7l1.38-9a2 2 0 0 0-2-2.3zM7 22H4a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2h3';

/** The thumb's svg, in the text's colour, hidden from screen readers (its button carries the name). */
export const THUMB_SVG = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  'stroke-width': '2',
  'stroke-linecap': 'round',
  'stroke-linejoin': 'round',
  'aria-hidden': 'true',
  focusable: 'false',
} as const;

/** The path's transform: turned over, the thumb points down. */
export const thumbTurn = (direction: 'up' | 'down'): string | undefined => (direction === 'down' ? 'rotate(180 12 12)' : undefined);
