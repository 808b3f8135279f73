// Questions a customer might ask about handbook.md, written before the responder was run on
// them, each with a fragment of the sentence a good answer quotes. `null` marks a question the
// handbook does not answer: the right reply is the offline responder's no-answer text.

export type EvalQuestion = {
  question: string;
  expected: string | null;
  /** What the question exercises. */
  kind: 'direct' | 'paraphrase' | 'word form' | 'unanswerable';
};

export const QUESTIONS: EvalQuestion[] = [
  { kind: 'direct', question: 'What time does customer service open on weekdays?', expected: 'available from 8:30 to 18:00, Monday to Friday' },
  { kind: 'direct', question: 'Can I visit your showroom?', expected: 'The showroom at Oudegracht 112 in Utrecht is open' },
  { kind: 'direct', question: 'Do your prices include VAT?', expected: 'All prices on the website include Dutch VAT' },
  { kind: 'word form', question: 'Which payment methods are accepted?', expected: 'We accept iDEAL, Visa, Mastercard' },
  { kind: 'word form', question: 'Do students get discounts?', expected: 'Students receive a discount of 10 percent' },
  { kind: 'paraphrase', question: 'How long does delivery to Germany take?', expected: 'delivery to other EU countries takes three to five working days' },
  { kind: 'word form', question: 'What are the shipping costs?', expected: 'Shipping is free for orders above 75 euros' },
  { kind: 'paraphrase', question: 'Do you ship to Switzerland?', expected: 'We do not ship outside the European Union' },
  { kind: 'word form', question: 'How can I track my parcel?', expected: 'Every parcel gets a tracking code' },
  { kind: 'word form', question: 'What is your returns policy?', expected: 'You may return any item within 30 days of delivery' },
  { kind: 'word form', question: 'Can I return a bulb I already used?', expected: 'Bulbs that have been fitted cannot be returned' },
  { kind: 'paraphrase', question: 'How do I send something back?', expected: 'To start a return, open the order in your account' },
  { kind: 'paraphrase', question: 'When will I get my money back?', expected: 'Refunds are paid to the original payment method within 14 days' },
  { kind: 'direct', question: 'How long is the warranty on lamps?', expected: 'All lamps carry a two-year warranty' },
  { kind: 'paraphrase', question: 'Is water damage covered by the warranty?', expected: 'The warranty does not cover damage caused by dropping the product' },
  { kind: 'direct', question: 'How do I make a warranty claim?', expected: 'send a photo of the defect and your order number' },
  { kind: 'paraphrase', question: 'I forgot my password, what now?', expected: 'To reset your password, click Forgot password' },
  { kind: 'paraphrase', question: 'Do you sell my data to other companies?', expected: 'We never sell personal data to third parties' },
  { kind: 'word form', question: 'How do I stop receiving newsletters?', expected: 'You can unsubscribe from the newsletter' },
  { kind: 'paraphrase', question: 'What is your phone number?', expected: 'Call us on +31 30 123 4567' },
  { kind: 'unanswerable', question: 'Do you offer gift wrapping?', expected: null },
  { kind: 'unanswerable', question: 'Can I pay with cryptocurrency?', expected: null },
  { kind: 'unanswerable', question: 'Do you have a physical store in Amsterdam?', expected: null },
  { kind: 'unanswerable', question: 'Who is the CEO of Lumen & Co.?', expected: null },
  { kind: 'unanswerable', question: 'Do you install lamps at home?', expected: null },
];
