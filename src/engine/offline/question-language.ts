import type { Language } from '../../settings/languages.js';
import { matchingCase } from '../text.js';

// The language a question is written in, among those the offline responder has replies in
// besides English, told by the short words every sentence of it uses. The material is read in
// English only: a question in Spanish shares no word with it and is declined, and the decline
// is then said in Spanish. Words English uses too ("die", "was", "son", "per", "met", "do", "no")
// are left out, and a question is only read as another language when at least half its words,
// and two or more, are that language's: a question as much Norwegian as Danish is neither, nor
// is one as much Swedish as Danish, unless it is written with the letters of one alone.

/**
 * Languages the widget does not speak but visitors of its businesses often ask in: Norwegian
 * (Bokmål), Swedish, Danish, Portuguese. A question in one is declined in it, not in a language
 * the visitor did not write.
 */
export type AskedOnlyLanguage = 'nb' | 'sv' | 'da' | 'pt';
/** A language a question may be told to be in: the widget's others, and those it is only asked in. */
export type QuestionLanguage = Exclude<Language, 'en'> | AskedOnlyLanguage;

const MARKERS: Record<QuestionLanguage, Set<string>> = {
  es: marked(
    'donde que cuanto cuanta cuantos cuando como esta estan estais hay tiene tienen teneis puedo puede pueden ustedes vosotros ' +
      'abierto abren cuesta cuestan precio horario para por con los las el del una y es sois quiero necesito mi su sus aceptan se la',
  ),
  de: marked(
    'wo wann wie warum welche ist sind seid ihr habt haben gibt kostet kosten viel kann konnen ich nicht der das ein eine einen ' +
      'und mit fur geoffnet bitte euch uns wir mein meine kein auch noch zu bei im vom zum',
  ),
  fr: marked(
    'ou quel quelle quels quelles quand combien est sont etes vous le les des du une et je peux pouvez avez ouvert ouverte coute ' +
      'votre vos nous pour avec ce qu que il sur dans pas ne mon mes la',
  ),
  it: marked(
    'dove quando quanto quanti costa costano siete sono il lo gli di del della dei una posso possiamo avete aperto aperti che ' +
      'cosa con orari voi vostro vostra mio mia ci si la',
  ),
  nl: marked('waar wat wanneer hoeveel kost kosten zijn jullie het een ik hebben hebt heeft bent zit zitten jij je uw mijn niet voor geopend hoe welke kunnen kun ook'),
  // Written as matchingCase folds them: "når" is "nar"; ø and æ are letters of their own.
  nb: marked(
    'hvor hva hvordan hvorfor nar hvilke hvilken hvem ligger dere deres koster apent apen apner apningstider jeg meg mitt mine ikke noe ' +
      'noen kan vi har og er til pa av eller ogsa bestille betale hvis finnes takk hei',
  ),
  sv: marked(
    'var vad hur varfor nar vilka vilken vem ligger ni era kostar oppet oppna oppettider jag mig mitt mina inte nagot nagon nagra ' +
      'kan vi har och ar till pa av eller ocksa bestalla betala om finns maste tack hej',
  ),
  da: marked(
    'hvor hvad hvordan hvorfor hvornar hvilke hvilken hvem ligger jer jeres koster abent aben abner abningstider jeg mig mit mine ikke ' +
      'noget nogen kan vi har og er til pa af eller ogsa bestille betale hvis findes tak hej',
  ),
  pt: marked(
    'onde quando quanto quanta quantos quantas custa custam voces voce esta estao tem posso pode podem aberto aberta abrem preco ' +
      'horario horarios para com os uma da dos das na nao meu minha seu sua aceitam qual quais obrigado obrigada ola como',
  ),
};
/** At least this many of a question's words must be one language's. */
const MIN_MARKERS = 2;

function marked(list: string): Set<string> {
  return new Set(list.split(' '));
}

/** A question's words of letters, lower-cased and without accents as matchingCase folds them ("¿Dónde están?" → donde, estan). */
function plainWords(question: string): string[] {
  return matchingCase(question).match(/\p{L}+/gu) ?? [];
}

/** The language other than English a question is written in; undefined for English or one it cannot tell. */
export function questionLanguage(question: string): QuestionLanguage | undefined {
  const said = plainWords(question);
  const counts = (Object.entries(MARKERS) as [QuestionLanguage, Set<string>][])
    .map(([language, markers]): [QuestionLanguage, number] => [language, said.filter((word) => markers.has(word)).length])
    .sort(([, a], [, b]) => b - a);
  const [best] = counts;
  if (!best || best[1] < MIN_MARKERS || best[1] * 2 < said.length) return undefined;
  const tied = counts.filter(([, count]) => count === best[1]).map(([language]) => language);
  return tied.length === 1 ? best[0] : byOwnLetters(question, tied);
}

/**
 * Letters only some of the languages write: æ and ø Danish and Norwegian, ä and ö Swedish, which
 * matchingCase folds into a and o or keeps alike. Read in the question as written.
 */
const OWN_LETTERS: Partial<Record<QuestionLanguage, RegExp>> = { da: /[æø]/i, nb: /[æø]/i, sv: /[äö]/i };

/**
 * Of languages a question's words are as much of, the one whose own letters it is written with:
 * "Hej, kan I hjælpe mig?" is as much Swedish as Danish by its short words, and Danish by its æ.
 * Undefined where the letters tell none, or several, apart.
 */
function byOwnLetters(question: string, tied: QuestionLanguage[]): QuestionLanguage | undefined {
  const written = tied.filter((language) => OWN_LETTERS[language]?.test(question));
  return written.length === 1 ? written[0] : undefined;
}
