// Text search in the console, as people type on a phone: without accents, capitals or ß, so
// "roscon" finds "roscón", "strasse" finds "Straße" and "muller" finds "Müller".

/** The text reduced to what a search compares: lower case, accents and other marks dropped, ß as ss. */
export function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/ß/g, 'ss');
}

