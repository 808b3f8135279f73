import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { indexTerms } from '../../src/engine/lexicon.js';
import {
  addressesNamed,
  compoundTerms,
  contentWords,
  findCompounds,
  stem,
  findWords,
  foundWord,
  foundWords,
  isWordInBytes,
  nextCompoundInBytes,
  nextWordInBytes,
  wordHash,
  wordInBytes,
  type WordInBytes,
  wordOfBytes,
  words,
} from '../../src/engine/text.js';

// The terms training indexes a text by: its words' stems, the base forms of irregular ones, and
// its hyphenated compounds whole.

describe('indexTerms', () => {
  it('stems content words, adds the base forms of irregular ones and drops stopwords', () => {
    expect(indexTerms('The children paid for the returns, she bought it’s e-bikes')).toEqual([
      'children', 'child', 'paid', 'pai', 'return', 'bought', 'bui', 'it', 'e', 'bike', 'e-bike',
    ]);
  });
});

describe('addressesNamed', () => {
  it('reads an e-mail address as "email" and a web address as "website", not by their parts', () => {
    expect(indexTerms('Write to hello@lumen-lamps.example, or order at www.lumen-lamps.example/shop')).toEqual(['write', 'email', 'order', 'websit']);
    expect(addressesNamed('Book at portal.westpark-practice.example, see https://x.example/a?b=1 or riverbendvets.nz/book.')).toBe(
      'Book at  website , see  website  or  website ',
    );
  });

  it('leaves file names, versions, abbreviations and names with dots as words', () => {
    const text = 'Edit config.json and README.md (v2.4, e.g. Node.js on ASP.NET), Mon.–Fri. at Lumen & Co.';
    expect(addressesNamed(text)).toBe(text);
  });

  it('reads a long run of dotted letters in a time its length bounds, and the address after it', () => {
    // Tried after every dot, an unbounded host name read to the run's end each time: minutes for this.
    const run = 'a.'.repeat(40_000);
    expect(addressesNamed(`${run} Mail hello@shop.example or see shop.example/a.a`)).toBe(`${run} Mail  email  or see  website `);
  });
});

describe('contentWords', () => {
  it("drops contractions of stopwords as it drops stopwords, and keeps a possessive", () => {
    const contractions = ["what's", 'what’s', "i'm", "don't", "can't", "won't", "isn't", "it's", "you're", "we've", "they'll", "i'd", "let's", "here's"];
    expect(contentWords(contractions.join(' '))).toEqual([]);
    expect(contentWords("What's the dog's bike? It's o'clock, rock'n roll")).toEqual(["dog's", 'bike', "o'clock", "rock'n", 'roll']);
  });
});

describe('stem', () => {
  it('gives a word ending in a digit the stem Porter gives it, without asking', () => {
    for (const word of ['kes4105', 'ies2', 'ying7', 'A-4', 'rationalization9', 'Y2', 'fees2019', 'ss3']) expect(stem(word)).toBe(stemmer(word));
    expect(stem('rationalizations')).toBe(stemmer('rationalizations'));
  });
});

describe('compoundTerms', () => {
  it('finds compounds only from a word’s start, in any script, the last part stemmed', () => {
    expect(compoundTerms('Our Wi-Fi, e-bikes and KES-4105 x--y a-b-c- -d-e x_f-g İ-Returns 𝐀𝐁-Ω')).toEqual([
      'wi-fi', 'e-bike', 'kes-4105', 'a-b-c', 'd-e', 'f-g', 'i-return', '𝐀𝐁-ω',
    ]);
  });

  it('finds the same in ASCII text, read without lower-casing it whole', () => {
    expect(compoundTerms("Our Wi-Fi, E-Bikes and KES-4105 x--y a-b-c- -d-e x_f-g it's-done Rock’n-Rolls 3-Pins")).toEqual([
      'wi-fi', 'e-bike', 'kes-4105', 'a-b-c', 'd-e', 'f-g', 's-done', 'n-roll', '3-pin',
    ]);
  });
});

describe('words', () => {
  it('lower-cases the whole text before reading words, and drops the accents of Latin letters', () => {
    // "İ" lowers to "i" and a combining dot, a mark dropped as the accent of "é" is; "ΣΑΣ." ends
    // in a final sigma; ß reads as ss; Greek and Japanese keep their marks.
    expect(words('İstanbul ΣΑΣ. Don’t l’été x’1 Straße Ωμέγα が')).toEqual(['istanbul', 'σας', 'don’t', 'l’ete', 'x', '1', 'strasse', 'ωμέγα', 'が']);
  });
});

describe('findWords', () => {
  const found = (text: string) => {
    const into = foundWords();
    findWords(text, into);
    return Array.from({ length: into.count }, (_, k) => {
      const word = foundWord(into, k);
      expect(into.hashes[k]).toBe(wordHash(word));
      return word;
    });
  };

  it('finds the words words() reads, ASCII read in place with apostrophes and case, other text as words() reads it', () => {
    const texts = [
      "Don’t STOP: it's9 O'Neil x'1 'quoted' rock’n’roll ’s e-Bikes KES-4105 a_b \r\n| Size | Price |\n# Q1. 5.95 end'",
      'Trailing apostrophe\u2019 and digits 1st 2nd 10x,000',
      '',
      '   ',
      'İstanbul',
      'ΣΑΣ.',
      "l'été don'té café",
      'price €5',
      'emoji 😀',
      'no\u00a0break',
    ];
    for (const text of texts) expect(found(text)).toEqual(words(text));
  });

  it('reuses its arrays from text to text, growing them for a long one', () => {
    const into = foundWords();
    const long = 'Word '.repeat(5_000);
    for (const text of ['short one', long, 'İ x', long.toUpperCase(), 'tail']) {
      findWords(text, into);
      expect(Array.from({ length: into.count }, (_, k) => foundWord(into, k))).toEqual(words(text));
    }
  });
});

/** The text written between two others in the same bytes, as an index part's sentences are, and where it is in them. */
const between = (text: string, after = 'b after.') => {
  const before = 'Before a';
  const bytes = Buffer.from(`${before}${text}${after}`);
  const from = Buffer.byteLength(before);
  return { bytes, from, to: from + Buffer.byteLength(text) };
};

/** What was found in the bytes as findWords gives it, checked to carry its wordHash and length, and to be the characters it is. */
const foundIn = (bytes: Uint8Array, found: WordInBytes) => {
  const word = wordOfBytes(bytes, found);
  expect(found.hash).toBe(wordHash(word));
  expect(found.length).toBe(word.length);
  const chars = Uint16Array.from(word, (char) => char.charCodeAt(0));
  expect(isWordInBytes(bytes, found, chars, 0)).toBe(true);
  chars[chars.length - 1] = 0x5f;
  expect(isWordInBytes(bytes, found, chars, 0)).toBe(false);
  return word;
};

describe('nextWordInBytes', () => {
  /** The words nextWordInBytes reads one by one in the text, and where it stopped. */
  const readInBytes = (text: string) => {
    const { bytes, from, to } = between(text);
    const word = wordInBytes();
    const found: string[] = [];
    let read = nextWordInBytes(bytes, from, to, word);
    for (; read === 'word'; read = nextWordInBytes(bytes, word.end, to, word)) found.push(foundIn(bytes, word));
    const hyphen = word.hyphen < 0 ? undefined : word.hyphen - from;
    return { read, found, hyphen };
  };

  it('finds the words findWords finds in ASCII text, ’ included, and where the first hyphen is', () => {
    const texts = [
      "Don’t STOP: it's9 O'Neil x'1 'quoted' rock’n’roll ’s a_b \r\n| Size | Price |\n# Q1. 5.95 end'",
      'Trailing apostrophe’ and digits 1st 2nd 10x,000 ’',
      "ends in an apostrophe'",
      'ends in a curly one’',
      'ratio 3:1 and a path /a/b: c',
      'no dot. Then 5.95 and a stop.',
      '',
      '   ',
    ];
    for (const text of texts) expect(readInBytes(text)).toEqual({ read: 'end', found: words(text), hyphen: undefined });
    for (const text of ['e-Bikes and KES-4105', 'a - b', 'x-']) expect(readInBytes(text)).toEqual({ read: 'end', found: words(text), hyphen: text.indexOf('-') });
  });

  it('stops at what is not ASCII but for ’, and at what may hold an address (addressesNamed), for a string to read', () => {
    for (const text of ['İstanbul', 'café', 'price €5', 'emoji 😀', 'no\u00a0break', '“quoted”', 'mail hello@lumen', 'see https://localhost', 'e.g. this', 'lamps.example']) {
      expect(readInBytes(text).read).toBe('other');
    }
    expect(readInBytes('The café').found).toEqual(['the', 'caf']);
  });
});

/** The words found into `into`, each checked to carry its wordHash. */
const foundList = (into: ReturnType<typeof foundWords>) =>
  Array.from({ length: into.count }, (_, k) => {
    const word = foundWord(into, k);
    expect(into.hashes[k]).toBe(wordHash(word));
    return word;
  });

describe('findCompounds', () => {
  it('finds the compounds compoundTerms reads, lower-cased', () => {
    const text = "Our Wi-Fi, E-Bikes and KES-4105 x--y a-b-c- -d-e x_f-g it's-done Rock’n-Rolls 3-Pins";
    const into = foundWords();
    findCompounds(text, into);
    expect(foundList(into)).toEqual(['wi-fi', 'e-bikes', 'kes-4105', 'a-b-c', 'd-e', 'f-g', 's-done', 'n-rolls', '3-pins']);
  });

  it('finds the same one by one in the bytes of a text between two others, as an index part keeps its sentences, the bytes beside it not joined', () => {
    for (const text of ["Our Wi-Fi, E-Bikes and KES-4105 x--y a-b-c- -d-e x_f-g it's-done Rock’n-Rolls 3-Pins", '-led and to-', 'G-2032', 'none']) {
      const { bytes, from, to } = between(text, 'b-after.');
      const compound = wordInBytes();
      const inBytes: string[] = [];
      for (let i = from; nextCompoundInBytes(bytes, i, from, to, compound); i = compound.end) inBytes.push(foundIn(bytes, compound));
      const inString = foundWords();
      findCompounds(text, inString);
      expect(inBytes).toEqual(foundList(inString));
    }
  });
});
