// The waiting message a chatbot has until its owner writes one, in each language the widget
// speaks: a visitor reads the default in their language, an owner's own text as written.

export const DEFAULT_WAITING_MESSAGE = {
  en: 'I am asking someone from the team to join. Please stay here; they will answer in this chat.',
  es: 'Estoy pidiendo a alguien del equipo que se una. Quédate aquí; te responderán en este chat.',
  de: 'Ich bitte jemanden aus dem Team dazu. Bitte bleiben Sie hier; die Antwort kommt in diesem Chat.',
  fr: 'Je demande à un membre de l’équipe de nous rejoindre. Restez ici ; la réponse arrivera dans ce chat.',
  it: 'Sto chiedendo a qualcuno del team di unirsi. Resta qui: ti risponderà in questa chat.',
  nl: 'Ik vraag iemand van het team om erbij te komen. Blijf hier; je krijgt antwoord in deze chat.',
} as const;

export type WaitingMessageLanguage = keyof typeof DEFAULT_WAITING_MESSAGE;

/**
 * What a visitor reading `lang` is told as a handoff starts: the default in their language while
 * the owner kept it (its English text), else the owner's `waitingMessage` as written.
 */
export function waitingMessageIn(waitingMessage: string, lang: WaitingMessageLanguage = 'en'): string {
  return waitingMessage === DEFAULT_WAITING_MESSAGE.en ? DEFAULT_WAITING_MESSAGE[lang] : waitingMessage;
}
