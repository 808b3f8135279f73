import { type FoundWords, wordHash } from './text.js';

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
const STREET_ENDING =
  '(?:gata|gatan|gate|gaten|gade|vei|veien|veg|vegen|väg|vägen|vej|vejen|straße|strasse|str|weg|gasse|allee|platz|plein|straat|laan|kade|gracht|torg|torget|plass|plassen|katu|tie|utca|ulica)';
/** Street words written before the name ("Rue de Rivoli 5", "Via Roma 12", "Calle Mayor 3"), or after a number ("12 rue de Rivoli"). */
const STREET_BEFORE_NAME = 'Rue|Via|Viale|Piazza|Corso|Largo|Calle|Avenida|Plaza|Paseo|Carrer|Rua|Praça|Quai|Place';

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
  String.raw`\b\d+,?\s+(?:rue|avenue|boulevard|place|quai|allée|chemin|via|calle)\s`,
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

/** The words without which no sentence states a place but by a number: "located", "situated", "based", "us", "address". */
const PLACE_CUES = new Set(['located', 'situated', 'based', 'us', 'address'].map(wordHash));
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/**
 * Whether the words found in a sentence may state a place (a number among them, or a word of
 * PLACE_CUES): most sentences are told not to without being read as a string.
 */
export function mayStatePlace(found: FoundWords): boolean {
  for (let k = 0; k < found.count; k += 1) {
    const first = found.chars[found.bounds[k] as number] as number;
    if ((first >= DIGIT_0 && first <= DIGIT_9) || PLACE_CUES.has(found.hashes[k] as number)) return true;
  }
  return false;
}
