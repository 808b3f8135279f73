// A chat platform's emphasis markers, dropped where its text reaches a surface that shows text as
// typed (a handoff reply in the widget): a marker right before a word's first character and the
// same after its last, at word boundaries, as the platforms draw them ("2*3*4" and snake_case stay).

/** Drops the given markers' emphasis from text; list a longer marker before its prefix ("**" before "*"). */
export function emphasisDropper(markers: string[]): (text: string) => string {
  const alternatives = markers.map((marker) => marker.replace(/[*_~|]/g, '\\$&')).join('|');
  const emphasis = new RegExp(`(^|[\\s([{"'])(${alternatives})(?=\\S)([^\\n]*?\\S)\\2(?=$|[\\s)\\]}"'.,;:!?])`, 'g');
  return (text) => text.replace(emphasis, '$1$3');
}
