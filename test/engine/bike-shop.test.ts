import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../src/settings/chatbot-settings.js';
import { detailsIn } from '../../src/domain/lead-capture.js';
import { chunkText } from '../../src/engine/chunking.js';
import { buildLexicalIndex, lexicalSearcher } from '../../src/engine/lexical-index.js';
import { composeAnswer, NO_ANSWER } from '../../src/engine/offline/compose.js';
import type { ChatTurn, GivenDetails } from '../../src/engine/responder.js';
import { documentText } from './eval/score.js';

// The bike-shop conversations of issue 12, replayed against the shop's handbook.

const searcherOf = (material: string) =>
  lexicalSearcher(buildLexicalIndex(chunkText(material).map((text, seq) => ({ seq, text }))));
const handbook = searcherOf(documentText('bike-shop.md'));

/** The 1 KB handbook of the issue, whose Service section is one sentence. */
const SHORT_HANDBOOK = [
  '# Harbour Cycles', '## Opening hours', 'Our shop is open from 9:00 to 18:00, Monday to Friday.',
  '## Returns', 'You can return any unused bike within 30 days of purchase for a full refund.',
  '## Service', 'We service all brands, including e-bikes.',
  '## Delivery', 'We deliver within 25 km. You pay the delivery fee when you order.',
].join('\n\n');

function ask(question: string, earlier?: string, given?: GivenDetails, search = handbook): string {
  const messages: ChatTurn[] = earlier
    ? [{ role: 'user', content: earlier }, { role: 'assistant', content: '…' }, { role: 'user', content: question }]
    : [{ role: 'user', content: question }];
  const settings = defaultSettings('Harbour helper');
  return composeAnswer({
    chatbotName: 'Harbour helper',
    settings,
    messages,
    passages: search({ question, context: earlier }, 4),
    contact: undefined,
    given,
    model: settings.model,
    temperature: 0,
    signal: new AbortController().signal,
  });
}

describe('the bike shop of issue 12', () => {
  it('finds the return policy for a bike bought last week', () => {
    expect(ask('Can I bring back a bike I bought last week?')).toContain('You can return any unused bike within 30 days');
  });

  it('declines bitcoin instead of quoting the paragraph that shares "pay"', () => {
    expect(ask('Can I pay with bitcoin?')).toBe(NO_ANSWER);
  });

  it('finds "e-bikes" for "electric bikes", also where the Service section is one sentence', () => {
    expect(ask('Do you fix electric bikes?')).toContain('We service all brands, including e-bikes');
    expect(ask('Do you fix electric bikes?', undefined, undefined, searcherOf(SHORT_HANDBOOK))).toBe(
      'We service all brands, including e-bikes.',
    );
    expect(ask('How long is the battery of an ebike covered?')).toContain('Batteries of e-bikes are covered for two years');
  });

  it('reads "how long" as the form of the question, not as a word the answer must hold', () => {
    expect(ask('How long does a repair take?')).toContain('Most repairs are ready within two working days');
  });

  it('declines a question naming what the material never mentions, whatever else it shares', () => {
    expect(ask('Do you repair bikes with Shimano Di2 shifters?')).toBe(NO_ANSWER);
    expect(ask('Do you repair cargo bikes?')).toContain('We service all brands, including e-bikes and cargo bikes.');
  });

  it('quotes the Saturday sentence alone, without its heading', () => {
    const answer = ask('When are you open on Saturday?');
    expect(answer).toBe('On Saturday we open from 10:00 to 16:00.');
  });

  it('answers a follow-up from the earlier question', () => {
    expect(ask('And on Saturday?', 'What are your opening hours?')).toContain('On Saturday we open from 10:00 to 16:00.');
  });

  it('reads "they" of a follow-up naming one thing with a light verb as the earlier question\'s subject', () => {
    // "come" says nothing of its own; counted as a second word, the follow-up stood on its own
    // and "whichever comes first" of the e-bike batteries was quoted.
    expect(ask('Do they come with a warranty?', 'Do you sell second-hand bikes?')).toContain('sold with a six-month warranty');
  });

  it('stores the name and email of "I\'m Ada Lovelace, ada@example.com" and thanks her by name', () => {
    const message = "I'm Ada Lovelace, ada@example.com";
    const details = detailsIn([{ role: 'user', content: message }]);
    expect(details).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', phone: null });
    expect(detailsIn([{ role: 'user', content: 'my name is Grace Hopper, call +44 20 7946 0000' }])).toEqual({
      name: 'Grace Hopper', email: null, phone: '+44 20 7946 0000',
    });
    expect(detailsIn([{ role: 'user', content: 'this is Alan Turing' }]).name).toBe('Alan Turing');
    expect(ask(message, undefined, details)).toBe("Thank you, Ada! We'll get back to you at ada@example.com.");
  });
});
