// The window's icons, drawn as inline SVG with DOM calls: an emoji looks different on every
// platform, and a screen reader reads it aloud ("thumbs up sign") beside the button's own name.

const SVG = 'http://www.w3.org/2000/svg';

/** A thumb, pointing up (after Feather's thumbs-up, MIT); turned over, it points down. */
const THUMB = 'M14 9V5a3 3 0 0 0-3-3l-4 9v11h11.28a2 2 0 0 0 2-1.7l1.38-9a2 2 0 0 0-2-2.3zM7 22H4a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2h3';

/** A thumb up or down, in the text's colour, hidden from screen readers (its button carries the name). */
export function thumbIcon(direction: 'up' | 'down'): SVGSVGElement {
  const icon = document.createElementNS(SVG, 'svg');
  const attributes = {
    viewBox: '0 0 24 24',
    width: '18',
    height: '18',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
    focusable: 'false',
    class: 'icon',
  };
  for (const [name, value] of Object.entries(attributes)) icon.setAttribute(name, value);
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', THUMB);
  if (direction === 'down') path.setAttribute('transform', 'rotate(180 12 12)');
  icon.append(path);
  return icon;
}
