// A chat platform's emphasis markers, dropped where its text reaches a surface that shows text as
// typed (a handoff reply in the widget): a marker right before a word's first character and the
// same after its last, at word boundaries, as the platforms draw them ("2*3*4" and snake_case stay).

/** What may stand before an opening marker, and after a closing one (or the line's start and end). */
const BEFORE_OPENING = /[\s([{"']/;
const AFTER_CLOSING = /[\s)\]}"'.,;:!?]/;
const SPACE = /\s/;

/**
 * Drops the given markers' emphasis from text; list a longer marker before its prefix ("**" before "*").
 * Line by line, each opening marker paired with the nearest closing one after it, as a lazy pattern
 * would pair them; a loop, as a pattern looked to the line's end from every opening marker without a
 * closing one (a reply of 32,000 characters of "*a " took seconds).
 */
export function emphasisDropper(markers: string[]): (text: string) => string {
  return (text) =>
    text
      .split('\n')
      .map((line) => withoutEmphasis(line, markers))
      .join('\n');
}

function withoutEmphasis(line: string, markers: string[]): string {
  const closings = markers.map((marker) => closingMarkers(line, marker));
  let kept = '';
  let copied = 0;
  // An opening marker's character before it is no closing marker's after it: the first may open at copied + 1.
  for (let at = 0; at < line.length; at += 1) {
    if (at > 0 && (at <= copied || !BEFORE_OPENING.test(line.charAt(at - 1)))) continue;
    for (const [index, marker] of markers.entries()) {
      const inner = at + marker.length;
      if (!line.startsWith(marker, at) || inner >= line.length || SPACE.test(line.charAt(inner))) continue;
      const closing = closings[index]?.next(inner + 1);
      if (closing === undefined) continue;
      kept += line.slice(copied, at) + line.slice(inner, closing);
      copied = closing + marker.length;
      at = copied;
      break;
    }
  }
  return kept + line.slice(copied);
}

/** Where a marker may close emphasis in a line (after a character that is no space, before the end or AFTER_CLOSING), looked up in order. */
function closingMarkers(line: string, marker: string): { next(from: number): number | undefined } {
  const places: number[] = [];
  for (let at = line.indexOf(marker, 1); at >= 0; at = line.indexOf(marker, at + 1)) {
    const after = at + marker.length;
    if (!SPACE.test(line.charAt(at - 1)) && (after === line.length || AFTER_CLOSING.test(line.charAt(after)))) places.push(at);
  }
  let seen = 0;
  // Openings are looked at left to right, so each asks from further on: one pass over places.
  return {
    next(from) {
      while (seen < places.length && (places[seen] as number) < from) seen += 1;
      return places[seen];
    },
  };
}
