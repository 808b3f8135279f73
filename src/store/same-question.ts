// When two wordings ask the very same question, for the review loop (a question without content
// words is grouped by its wording) and for a Q&A correction (the pair of that question): alike
// once case is folded (toLowerCase, the same in every locale), a run of white space is one space,
// and the marks ending a sentence and the spaces around them are trimmed. "Refund policy?" and
// "refund  policy ?" are one question. Computed when compared, never stored: a change here needs
// no migration.

export function sameQuestionKey(question: string): string {
  return question.toLowerCase().replace(WHITE_SPACE, ' ').replace(TRAILING_MARKS, '').trim();
}

const WHITE_SPACE = /\s+/gu;
const TRAILING_MARKS = /[\s?!.,;:…。？！]+$/u;

/**
 * The key of the group an unanswered question opens or is counted into by its words: its terms;
 * for a question of none ("Hello?", "Why?"), its wording, marked apart from any terms. (Groups
 * opened before by such questions share the key '' and take no more asks: which wordings they
 * counted was not kept.)
 */
export function unansweredKey({ terms, question }: { terms: string[]; question: string }): string {
  return terms.length > 0 ? terms.join(' ') : `"${sameQuestionKey(question)}`;
}
