// How long a question and its answer may be, wherever they become a Q&A source: added as one,
// an unanswered question resolved, an answer revised (and in the console's forms for them).

export const MAX_QUESTION_CHARS = 2_000;
export const MAX_ANSWER_CHARS = 20_000;
