import { describe, expect, it } from 'vitest';
import { asksForPerson, declinedTooOften, declinesInRow, mentionsKeyword, requestsHandoff } from '../../src/domain/handoff-triggers.js';
import { NO_ANSWER } from '../../src/engine/offline/compose.js';
import { DEFAULT_HANDOFF } from '../../src/settings/chatbot-settings.js';

describe('asksForPerson', () => {
  it.each([
    'can I talk to a person?',
    'agent please',
    'I want a human',
    'Could I speak with someone from your team?',
    'connect me to a real person',
    'I need to talk to customer service representatives',
    'Human!',
    'get me a live agent now',
    'let me speak to your manager',
    'can I chat with people from support',
    'Is there someone I can talk to?',
    'is there a person to speak with',
    'I would like to speak to a human being',
    // In the other languages the widget speaks, the verb of talking before or after the person.
    'Quiero hablar con una persona',
    '¿Puedo hablar con un agente?',
    'Kann ich mit einem Mitarbeiter sprechen?',
    'Ich möchte mit einem Menschen reden',
    'Je voudrais parler à quelqu’un',
    'Puis-je parler à un conseiller ?',
    'Vorrei parlare con un operatore',
    'Kan ik met een medewerker praten?',
    'Ik wil iemand spreken',
  ])('recognises %j', (message) => {
    expect(asksForPerson(message)).toBe(true);
  });

  it.each([
    'are you a human?',
    'Is this a person or a bot?',
    'how many people work at the shop?',
    'What does a travel agent charge?',
    'When are you open?',
    'Our staff trained the agents last week',
    'I am a person who likes tea',
    'My brother is a real person',
    'A person told me you sell kites',
    'The agent at the airport was rude',
    'Someone I know bought a cake here',
    '¿Cuánto cuesta por persona?',
    'Sprechen Sie Englisch?',
    'Wie viele Mitarbeiter haben Sie?',
    'Parlez-vous anglais ?',
    'Una persona me dijo que vendéis cometas',
  ])('does not take %j as a request', (message) => {
    expect(asksForPerson(message)).toBe(false);
  });
});

describe('mentionsKeyword', () => {
  it('matches a word or phrase in any inflection and case, on word boundaries', () => {
    expect(mentionsKeyword('I want my REFUNDS back', ['refund'])).toBe(true);
    expect(mentionsKeyword('Can I talk to sales about it?', ['talk to sales'])).toBe(true);
    expect(mentionsKeyword('This is refundable?', ['fund'])).toBe(false);
    expect(mentionsKeyword('anything', [])).toBe(false);
  });

  it('finds a keyword of a language written without spaces anywhere in the message', () => {
    // Found auditing the widget with non-Latin text: "退款" never matched "我要退款！", since the
    // whole sentence is one run of letters.
    expect(mentionsKeyword('我要退款！', ['退款'])).toBe(true);
    expect(mentionsKeyword('返金してください', ['返金'])).toBe(true);
    expect(mentionsKeyword('ขอคืนเงินได้ไหม', ['คืนเงิน'])).toBe(true);
    expect(mentionsKeyword('我要买蛋糕', ['退款'])).toBe(false);
    expect(mentionsKeyword('Хочу возврат денег', ['возврат'])).toBe(true);
  });
});

describe('declines', () => {
  const settings = { ...DEFAULT_HANDOFF, enabled: true, afterDeclines: 2 };
  const declined = { role: 'assistant' as const, content: NO_ANSWER };
  const answered = { role: 'assistant' as const, content: 'We open at 9.' };
  const asked = { role: 'user' as const, content: 'Something?' };

  it('counts the declines at the end of a conversation, in a row', () => {
    expect(declinesInRow([asked, declined, asked, answered, asked, declined, asked, declined, asked])).toBe(2);
    expect(declinesInRow([asked])).toBe(0);
  });

  it('hands off at the afterDeclines-th decline in a row, never when 0 or disabled', () => {
    expect(declinedTooOften(settings, [asked], NO_ANSWER)).toBe(false);
    expect(declinedTooOften(settings, [asked, declined, asked], NO_ANSWER)).toBe(true);
    expect(declinedTooOften(settings, [asked, declined, asked], 'We open at 9.')).toBe(false);
    expect(declinedTooOften({ ...settings, afterDeclines: 0 }, [asked, declined, asked, declined, asked], NO_ANSWER)).toBe(false);
    expect(declinedTooOften({ ...settings, enabled: false }, [asked, declined, asked], NO_ANSWER)).toBe(false);
  });
});

describe('requestsHandoff', () => {
  it('needs handoff enabled, and onRequest for a request by meaning', () => {
    const on = { ...DEFAULT_HANDOFF, enabled: true, keywords: ['invoice'] };
    expect(requestsHandoff(on, 'agent please')).toBe(true);
    expect(requestsHandoff(on, 'my invoices are wrong')).toBe(true);
    expect(requestsHandoff({ ...on, onRequest: false }, 'agent please')).toBe(false);
    expect(requestsHandoff({ ...on, onRequest: false }, 'my invoice')).toBe(true);
    expect(requestsHandoff({ ...on, enabled: false }, 'my invoice')).toBe(false);
  });
});
