// What a message asks, without the words people put before a question: "ok, another thing: do
// you ship abroad?" asks "do you ship abroad?". Read by retrieval and by the offline responder
// alike, so that a lead-in neither counts as words to find nor as words the material lacks.

const LEAD_IN = new RegExp(
  '^(?:' +
    [
      // Acknowledgements and fillers, each ending at a space or a stop ("well-behaved" is no lead-in).
      String.raw`(?:ok(?:ay)?|alright|all right|right|great|cool|nice|perfect|sure|fine|thanks|thank you|got it|i see|understood|sorry|oh|ah|hmm+|um+|uh|well|so|also|and|but|then|hey|hi|hello|btw|by the way|one last thing)(?=[\s,.!:;?]|$)`,
      // "another thing", "one more question", "a quick question for you"
      String.raw`(?:one|another|a|my)(?: (?:more|other|quick|last|further|final|different|small|little))* (?:thing|question|query)s?(?: for you)?(?=[\s,.!:;?]|$)`,
      String.raw`quick question|i have (?:a|another|one more) question|i was wondering|can i ask (?:you )?(?:something|a question)(?=[\s,.!:;?]|$)`,
    ].join('|') +
    String.raw`)[\s,.!:;?\u2013\u2014-]*`,
  'i',
);

/** The question without its lead-in; the message itself when nothing would be left. */
export function withoutLeadIn(message: string): string {
  let rest = message.trim();
  for (let match = LEAD_IN.exec(rest); match && match[0].length > 0; match = LEAD_IN.exec(rest)) {
    const next = rest.slice(match[0].length);
    if (!/[\p{L}\p{N}]/u.test(next)) break;
    rest = next;
  }
  return rest;
}
