import { words } from './text.js';

// A price asked by a question's form, "How much is…?", "how much for…?", names no word of it: the
// question side implies one (lexical-index.ts), and a key asked so (an FAQ's heading, a Q&A
// pair's question) is read as naming it, so that "What does shipping cost?" finds the owner's
// "How much is shipping?"; so is a question grouped with others (question-similarity.ts). Not
// "how much time…?" nor "how much does it weigh?", which name what they measure.

/** "How much is…?", "how much for…?": a price asked, or (of a thing measured) another amount. */
export const ASKS_PRICE = /\bhow much (?:is|are|was|were|does|do|did|will|would|could|can|should|for|to|it)\b|\bhow much$/;
const MEASURED = /\b(?:weigh|weighs|weight|heavy|big|large|long|time|space|room|luggage|baggage|data|storage|notice)\b/;

/**
 * The words naming a price itself, each standing for the other in a question asking one. Not
 * "fee" nor "charge", which name one kind of payment: "Is there a fee for a cheque book?" is not
 * answered by any charge of the bank's.
 */
export const PRICE_WORDS = ['price', 'cost'] as const;

/**
 * The words naming what a thing costs, the price words and the kinds of payment a business
 * charges: what paying is not. Word vectors put "costs" and "fee" near "pay", yet "Sourdough costs
 * 65 NOK" says nothing of how one pays.
 */
export const CHARGE_WORDS = [...PRICE_WORDS, 'fee', 'charge'] as const;
/**
 * A rate asked as the business's price ("What is your hourly rate?", "your rates", "a day rate"):
 * not a rate of something else ("the API rate limit", "the interest rate", "the success rate").
 */
const PRICE_RATE = /\b(?:hourly|daily|day|nightly|weekly|monthly|flat|labour|labor|your|ur) rates?\b(?! limit)/;

/** Whether words (lower-cased, joined by spaces) ask the business's rate, which is its price. */
export function asksRate(plain: string): boolean {
  return PRICE_RATE.test(plain);
}

/** Paying itself, in its dictionary forms ("paid", "paying" are "pay"). */
export const PAYING_WORDS = ['pay', 'payment'] as const;

/** Whether words (lower-cased, joined by spaces) ask a price by their form alone, and do not measure another thing. */
export function asksPriceByForm(plain: string): boolean {
  return ASKS_PRICE.test(plain) && !MEASURED.test(plain);
}

/** A key or question as its words are read: the "much" of one asking a price by its form read as "price". */
export function priceNamed(text: string): string {
  // Training reads every key: one without "much" is told at once, before its words are found.
  return MUCH.test(text) && asksPriceByForm(words(text).join(' ')) ? text.replace(MUCH, 'price') : text;
}

const MUCH = /\bmuch\b/i;
