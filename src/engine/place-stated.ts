import { words } from './text.js';

// Where a business is, as its material states it: a street address ("12 Quay Street",
// "Storgata 41", "0182 Oslo") or that it is located somewhere ("Our shop is located in the old
// town"). Training reads such a sentence with one term more, PLACE_TERM, which no word has: a
// question asking where the business is ("Where are you?", "What is your address?") is read as
// asking for it (asked-thing.ts businessPlaceAsked), as it shares no word with the answer.

/** The term of a sentence stating where the business is: no word is read as it (words have no "#"). */
export const PLACE_TERM = '#place';

/** Street words written after the street's name and its number before ("12 Quay Street", "221B Baker St."). */
const STREET_AFTER_NAME =
  'Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Square|Sq|Quay|Boulevard|Blvd|Drive|Dr|Way|Place|Pl|Court|Ct|Terrace|Close|Crescent|Row|Parade|Wharf|Highway|Hwy|Strand|Gardens|Mews|Alley|Walk|Broadway|Parkway|Pkwy';
/** Endings of street names written before the number ("Storgata 41", "Königstraße 12", "Kalverstraat 5"). */
const STREET_ENDINGS =
  'gata|gatan|gate|gaten|gade|vei|veien|veg|vegen|väg|vägen|vej|vejen|straße|strasse|str|weg|gasse|allee|platz|plein|straat|laan|kade|gracht|torg|torget|plass|plassen|katu|tie|utca|ulica';
const STREET_ENDING = `(?:${STREET_ENDINGS})`;
/** Street words written before the name ("Rue de Rivoli 5", "Via Roma 12", "Calle Mayor 3"), or after a number ("12 rue de Rivoli"). */
const STREET_BEFORE_NAME = 'Rue|Via|Viale|Piazza|Corso|Largo|Calle|Avenida|Plaza|Paseo|Carrer|Rua|Praça|Quai|Place';
/** Street words written in lower case after the number ("12 rue de Rivoli"). */
const STREET_AFTER_NUMBER = 'rue|avenue|boulevard|place|quai|allée|chemin|via|calle';

/** Who is located somewhere, in a sentence saying where the business is: "we", "our shop", "Harbor Bakery". */
const SUBJECT = String.raw`(?:\b[Ww]e\s+are|\b[Ww]e['’]re|\b[Oo]ur\s+(?:[\p{L}-]+\s+){1,2}(?:is|are)|(?:\p{Lu}[\p{L}'’&-]*\s+){2,}(?:is|are))(?:\s+(?:conveniently|centrally|right|now))?`;

/** The ways a sentence states where the business is, each found by what it cannot lack (a number, "located"). */
const PLACE_FORMS = [
  // "12 Quay Street", "221B Baker St."
  String.raw`\b\d+[A-Za-z]?,?\s+(?:\p{Lu}[\p{L}'’.-]*\s+){1,3}(?:${STREET_AFTER_NAME})\b`,
  // "Storgata 41", "Königstraße 12", "Karl Johans gate 5", "Hauptstr. 7": found by the number,
  // then the name looked at before it
  String.raw`\s+(?=\d+\b)(?<=\b\p{Lu}\p{L}*(?:\s+\p{Ll}*)?${STREET_ENDING}\.?\s+)`,
  String.raw`\b(?:${STREET_BEFORE_NAME})\s+(?:[\p{L}'’.-]+\s+){0,4}?\d+\b`,
  String.raw`\b\d+,?\s+(?:${STREET_AFTER_NUMBER})\s`,
  // A postcode before the town, after a comma or opening a line: "Storgata 41, 0182 Oslo", "10115 Berlin"
  String.raw`(?:^|[,;]\s*)(?:[A-Z]{1,2}-)?\d{4,5}(?:\s?[A-Z]{2})?\s+\p{Lu}\p{Ll}+`,
  // British and American postcodes: "London EC1V 9HX", "Austin, TX 78701"
  String.raw`\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b`,
  String.raw`,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?\b`,
  // "We are located in the old town", "Our studio is situated above the bakery", "Harbor Bakery is
  // based in Bergen": each found by its verb, then its subject looked at before it
  String.raw`\b(?:located|situated)\s+(?:at|in|on|next|opposite|near|beside|behind|across|just|inside|above|below|between|close)\b(?<=${SUBJECT}\s+(?:located|situated)\s+\w+)`,
  String.raw`\bbased\s+(?:in|at)\b(?<=${SUBJECT}\s+based\s+\w+)`,
  // "Address: Gaiety Quay Theatre, Merchant's Quay, Cork", but not an e-mail or web address
  String.raw`\b[Aa]ddress\s*:(?<!(?:[Ee]-?mail|[Ww]eb|IP|[Ii]nvoice|[Bb]illing|[Dd]elivery|[Ss]hipping)\s[Aa]ddress\s*:)\s*\S`,
  // "You find us at the harbour", "Visit us in Grünerløkka"
  String.raw`\b(?:[Ff]ind|[Vv]isit)\s+us\s+(?:at|in|next to|opposite|near|beside|behind)\s`,
];
const STATES_PLACE = new RegExp(PLACE_FORMS.join('|'), 'u');

/** Whether a sentence states where the business is: an address, or that it is located somewhere. */
export function statesPlace(sentence: string): boolean {
  return STATES_PLACE.test(sentence);
}

/** A pattern's alternatives as findWords reads them: lower-cased, accents folded. */
const wordsOf = (alternatives: string) => words(alternatives.replaceAll('|', ' '));
/** The words of which a sentence stating a place otherwise than by a number needs one. */
const PLACE_CUES = new Set(['located', 'situated', 'based', 'us', 'address']);
/** The street words of the forms stating a number with the street: a sentence needs one and a number. */
const STREET_WORDS = new Set([STREET_AFTER_NAME, STREET_BEFORE_NAME, STREET_AFTER_NUMBER].flatMap(wordsOf));
/** A word ending as a street's name does: a pattern tries the endings many times faster than a search of them. */
const STREET_NAME_END = new RegExp(`(?:${wordsOf(STREET_ENDINGS).join('|')})$`);
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

// What a word may give a sentence stating a place, as bits (placeMarks): training marks each
// distinct word once, and a sentence is told by its words' marks, with no string made: whether
// any has a mark, and, for a number whose meaning depends on the words beside it, those words'.
const CUE = 1;
const STREET_WORD = 2;
const NUMBER = 4;
/** A British postcode's second part ("9hx"). */
const POSTCODE_END = 8;
/** Four or five digits, two letters after them or not: a postcode's number before a town ("0182 Oslo", "1234ab Amsterdam"). */
const POSTCODE_BEFORE_TOWN = 16;
/** Five digits: a ZIP code after a state ("TX 78701"). */
const ZIP_CODE = 32;
/** A street's name written before its number ("storgata", "konigstrasse"). */
const STREET_NAME = 64;
/** Two characters: a state's code before a ZIP code ("TX 78701"). */
const TWO_CHARACTERS = 128;
const SURE_WITH_A_NUMBER = STREET_WORD | POSTCODE_END;
const DEPENDING_ON_NEIGHBOURS = POSTCODE_BEFORE_TOWN | ZIP_CODE | STREET_NAME;

/** The marks of a (lower-cased) word, as findWords finds it. */
export function placeMarks(word: string): number {
  const digits = leadingDigits(word);
  const { length } = word;
  return (
    (PLACE_CUES.has(word) ? CUE : 0) |
    (STREET_WORDS.has(word) ? STREET_WORD : 0) |
    (digits > 0 ? NUMBER : 0) |
    (digits === 1 && length === 3 ? POSTCODE_END : 0) |
    (digits >= 4 && digits <= 5 && (length === digits || length === digits + 2) ? POSTCODE_BEFORE_TOWN : 0) |
    (digits === 5 && length === 5 ? ZIP_CODE : 0) |
    (STREET_NAME_END.test(word) ? STREET_NAME : 0) |
    (length === 2 ? TWO_CHARACTERS : 0)
  );
}

function leadingDigits(word: string): number {
  let digits = 0;
  while (digits < word.length && word.charCodeAt(digits) >= DIGIT_0 && word.charCodeAt(digits) <= DIGIT_9) digits += 1;
  return digits;
}

/** The placeMarks of a text's words: each one's, in order, and all of them OR-ed. */
export type WordMarks = { count: number; each: Uint8Array; all: number };

export function wordMarks(): WordMarks {
  return { count: 0, each: new Uint8Array(1_024), all: 0 };
}

/** Makes room for the marks of this many words. */
export function roomForMarks(marks: WordMarks, count: number): void {
  if (marks.each.length < count) marks.each = new Uint8Array(2 * count);
}

/**
 * Whether the words of a sentence may state a place, as one of PLACE_FORMS needs them (a cue, a
 * street word and a number, a street's name before a number, a postcode's number), told by their
 * placeMarks. Most sentences are told not to without being read as a string. Never false where
 * statesPlace is true.
 */
export function mayStatePlace(marks: WordMarks): boolean {
  const { all } = marks;
  if ((all & CUE) !== 0) return true;
  if ((all & NUMBER) === 0) return false;
  if ((all & SURE_WITH_A_NUMBER) !== 0) return true;
  return (all & DEPENDING_ON_NEIGHBOURS) !== 0 && hasPostcodeOrStreetNumber(marks.count, marks.each);
}

/** Whether a word of the sentence is a postcode's number before a town or after a state, or a number after a street's name. */
function hasPostcodeOrStreetNumber(count: number, wordMarks: Uint8Array): boolean {
  for (let k = 0; k < count; k += 1) {
    const word = wordMarks[k] as number;
    if ((word & NUMBER) === 0) continue;
    const before = k > 0 ? (wordMarks[k - 1] as number) : 0;
    const after = k + 1 < count ? (wordMarks[k + 1] as number) : undefined;
    const beforeTown = (word & POSTCODE_BEFORE_TOWN) !== 0 && after !== undefined && (after & NUMBER) === 0;
    const afterState = (word & ZIP_CODE) !== 0 && (before & TWO_CHARACTERS) !== 0;
    if (beforeTown || afterState || (before & STREET_NAME) !== 0) return true;
  }
  return false;
}
