import type { Language } from './languages.js';

// The texts a chatbot has until its owner writes its own (the greeting, the details form's, what
// is said past `ipLimit`, the handoff's messages), in each language the widget speaks: a visitor
// reads the default in their language, an owner's own text as written.

export const DEFAULT_GREETING: Record<Language, string> = {
  en: 'Hi! What can I help you with?',
  es: '¡Hola! ¿En qué puedo ayudarte?',
  de: 'Hallo! Wobei kann ich Ihnen helfen?',
  fr: 'Bonjour ! Comment puis-je vous aider ?',
  it: 'Ciao! Come posso aiutarti?',
  nl: 'Hallo! Waarmee kan ik je helpen?',
};

export const DEFAULT_LEAD_FORM_TITLE: Record<Language, string> = {
  en: 'Let us know how to contact you',
  es: 'Dinos cómo podemos ponernos en contacto contigo',
  de: 'Sagen Sie uns, wie wir Sie erreichen können',
  fr: 'Dites-nous comment vous contacter',
  it: 'Dicci come possiamo contattarti',
  nl: 'Laat ons weten hoe we je kunnen bereiken',
};

/** The details form's field labels. */
export const DEFAULT_LEAD_LABELS: Record<'name' | 'email' | 'phone', Record<Language, string>> = {
  name: { en: 'Name', es: 'Nombre', de: 'Name', fr: 'Nom', it: 'Nome', nl: 'Naam' },
  email: { en: 'Email', es: 'Correo electrónico', de: 'E-Mail', fr: 'E-mail', it: 'Email', nl: 'E-mail' },
  phone: { en: 'Phone', es: 'Teléfono', de: 'Telefon', fr: 'Téléphone', it: 'Telefono', nl: 'Telefoon' },
};

/** What a visitor is told past the chatbot's `ipLimit`. */
export const DEFAULT_IP_LIMIT_MESSAGE: Record<Language, string> = {
  en: 'Too many messages in a row. Please try again later.',
  es: 'Demasiados mensajes seguidos. Inténtalo de nuevo más tarde.',
  de: 'Zu viele Nachrichten hintereinander. Bitte versuchen Sie es später erneut.',
  fr: 'Trop de messages à la suite. Veuillez réessayer plus tard.',
  it: 'Troppi messaggi di fila. Riprova più tardi.',
  nl: 'Te veel berichten achter elkaar. Probeer het later opnieuw.',
};

export const DEFAULT_WAITING_MESSAGE: Record<Language, string> = {
  en: 'I am asking someone from the team to join. Please stay here; they will answer in this chat.',
  es: 'Estoy pidiendo a alguien del equipo que se una. Quédate aquí; te responderán en este chat.',
  de: 'Ich bitte jemanden aus dem Team dazu. Bitte bleiben Sie hier; die Antwort kommt in diesem Chat.',
  fr: 'Je demande à un membre de l’équipe de nous rejoindre. Restez ici ; la réponse arrivera dans ce chat.',
  it: 'Sto chiedendo a qualcuno del team di unirsi. Resta qui: ti risponderà in questa chat.',
  nl: 'Ik vraag iemand van het team om erbij te komen. Blijf hier; je krijgt antwoord in deze chat.',
};

export const DEFAULT_OFFLINE_MESSAGE: Record<Language, string> = {
  en: 'Sorry, nobody from the team is available right now.',
  es: 'Lo siento, ahora mismo no hay nadie del equipo disponible.',
  de: 'Leider ist gerade niemand aus dem Team erreichbar.',
  fr: 'Désolé, personne de l’équipe n’est disponible pour le moment.',
  it: 'Spiacenti, al momento nessuno del team è disponibile.',
  nl: 'Sorry, er is op dit moment niemand van het team beschikbaar.',
};

/**
 * The owner's `message` as a visitor reading `lang` reads it: the default in their language while
 * the owner kept it (its English text), else as written.
 */
const ownMessageIn = (defaults: Record<Language, string>) => (message: string, lang: Language = 'en'): string =>
  message === defaults.en ? defaults[lang] : message;

/** What a visitor reading `lang` is told as a handoff starts. */
export const waitingMessageIn = ownMessageIn(DEFAULT_WAITING_MESSAGE);

/** What a visitor reading `lang` is told when nobody from the team took their handoff in time. */
export const offlineMessageIn = ownMessageIn(DEFAULT_OFFLINE_MESSAGE);

const greetingMessageIn = ownMessageIn(DEFAULT_GREETING);

/** The greeting (the owner's `initialMessages`) a visitor reading `lang` is shown. */
export const greetingIn = (initialMessages: readonly string[], lang: Language = 'en'): string[] =>
  initialMessages.map((message) => greetingMessageIn(message, lang));

/** What a visitor reading `lang` is told past the chatbot's `ipLimit`. */
export const ipLimitMessageIn = ownMessageIn(DEFAULT_IP_LIMIT_MESSAGE);

/** The details form's title a visitor reading `lang` is shown. */
export const leadFormTitleIn = ownMessageIn(DEFAULT_LEAD_FORM_TITLE);

/** The label of the details form's `field` a visitor reading `lang` is shown. */
export const leadLabelIn = (field: keyof typeof DEFAULT_LEAD_LABELS, label: string, lang: Language = 'en'): string =>
  ownMessageIn(DEFAULT_LEAD_LABELS[field])(label, lang);
