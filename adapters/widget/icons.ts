import { THUMB_PATH, THUMB_SVG, thumbTurn } from '../thumb-icon.js';

// The window's icons, drawn as inline SVG with DOM calls: an emoji looks different on every
// platform, and a screen reader reads it aloud ("thumbs up sign") beside the button's own name.

const SVG = 'http://www.w3.org/2000/svg';

/** A thumb up or down (thumb-icon.ts, as the console draws it), 18 px. */
export function thumbIcon(direction: 'up' | 'down'): SVGSVGElement {
  const icon = document.createElementNS(SVG, 'svg');
  for (const [name, value] of Object.entries({ ...THUMB_SVG, width: '18', height: '18', class: 'icon' })) icon.setAttribute(name, value);
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', THUMB_PATH);
  const turn = thumbTurn(direction);
  if (turn) path.setAttribute('transform', turn);
  icon.append(path);
  return icon;
}
