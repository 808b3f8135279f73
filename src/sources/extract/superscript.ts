// A superscript (HTML's <sup>, a DOCX run set superscript) written into a line of text. Set as plain
// text it glued to the word before it: "price<sup>3</sup>", a footnote's marker, read "price3", a
// word of its own to search, and "m<sup>2</sup>" read "m2". A marker becomes "[3]", apart from its
// word; an exponent is written in superscript characters ("m²", "10⁶"); the rest, an ordinal's
// ending ("1<sup>st</sup>"), stays as it is. A trademark's "TM", "SM" or "R" ("Acme<sup>TM</sup>", read
// "AcmeTM") is its sign, "Acme™", as the name is written where the sign is typed.

const SUPERSCRIPTS: Record<string, string> = {
  ...Object.fromEntries([...'0123456789'].map((digit, index) => [digit, '⁰¹²³⁴⁵⁶⁷⁸⁹'[index]])),
  '+': '⁺',
  '-': '⁻',
  '−': '⁻',
  n: 'ⁿ',
};
/** A trademark's letters and their sign (a lower-case "r" marks a note). */
const TRADEMARKS = new Map([
  ['TM', '™'],
  ['SM', '℠'],
  ['R', '®'],
]);
/** What a number may be raised to: "2", "-6", "n". */
const POWER = /^[-+−]?(?:\d+|n)$/;
/**
 * What is raised to a power: a number of one or two digits ("10"; a year's is a note's marker), a
 * unit or variable of one or two letters ("m", "cm", "x"), a bracket ("(a + b)").
 */
const BASE = /(?:(?<!\d)\d{1,2}|(?<!\p{L})\p{L}{1,2}|\))$/u;
/** A footnote's marker: a number, a letter or a symbol of those notes are marked with. */
const MARKER = /^(?:\d+|[a-z]|[*†‡§¶#]+)$/;

/** A superscript's text as written after `before`, the line's text so far; `linked`, when it links to a note on the page. */
export function superscriptText(before: string, text: string, linked: boolean): string {
  if (!text || /^\[.*\]$/.test(text)) return text;
  const trademark = linked ? undefined : TRADEMARKS.get(text);
  if (trademark) return trademark;
  if (!linked && POWER.test(text) && BASE.test(before)) return [...text].map((character) => SUPERSCRIPTS[character] ?? character).join('');
  return linked || MARKER.test(text) ? `[${text}]` : text;
}
