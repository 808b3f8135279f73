import type { Language } from '../../settings/languages.js';

// What the offline responder says itself (not quoting the material) to small talk and to a
// person who gives their details, in each language the widget speaks, in its window's register
// (tú, Sie, vous, tu, je). Without a language (the API, Slack, Discord) it is English.

export type SocialReplies = {
  /** "Who are you?" */
  identity(name: string): string;
  /** "How are you?" */
  wellbeing(name: string): string;
  /** "I have a question", "What can you do?" */
  offersHelp(name: string): string;
  goodbye(name: string): string;
  /** Thanks, or small talk that asks for nothing more. */
  welcome: string;
  /** A greeting, when the chatbot has no greeting of its own. */
  hello(name: string): string;
  /** Thanks for details given, by first name when there is one. */
  thanked(firstName: string | undefined): string;
  /** Said after `thanked`, with the email or phone given. */
  reachAt(reach: string): string;
  /** Said after `thanked` when only a name was given. */
  niceToMeet: string;
};

export const SOCIAL_REPLIES_IN: Record<Language, SocialReplies> = {
  en: {
    identity: (name) => `I'm ${name}. I answer questions from the material I was trained on — what would you like to know?`,
    wellbeing: (name) => `I'm doing well, thank you! I'm ${name} — what can I help you with?`,
    offersHelp: (name) => `I'm ${name}, here to help: I answer questions from the material I was trained on. What would you like to know?`,
    goodbye: (name) => `Goodbye, and thanks for chatting with ${name}!`,
    welcome: "You're welcome! Is there anything else I can help with?",
    hello: (name) => `Hello! I'm ${name}. How can I help?`,
    thanked: (firstName) => (firstName ? `Thank you, ${firstName}!` : 'Thank you!'),
    reachAt: (reach) => `We'll get back to you at ${reach}.`,
    niceToMeet: 'Nice to meet you. How can I help?',
  },
  es: {
    identity: (name) => `Soy ${name}. Respondo preguntas a partir del material con el que me entrenaron. ¿Qué quieres saber?`,
    wellbeing: (name) => `¡Muy bien, gracias! Soy ${name}. ¿En qué puedo ayudarte?`,
    offersHelp: (name) => `Soy ${name} y estoy aquí para ayudarte: respondo preguntas a partir del material con el que me entrenaron. ¿Qué quieres saber?`,
    goodbye: (name) => `¡Adiós, y gracias por hablar con ${name}!`,
    welcome: '¡De nada! ¿Puedo ayudarte con algo más?',
    hello: (name) => `¡Hola! Soy ${name}. ¿En qué puedo ayudarte?`,
    thanked: (firstName) => (firstName ? `¡Gracias, ${firstName}!` : '¡Gracias!'),
    reachAt: (reach) => `Nos pondremos en contacto contigo en ${reach}.`,
    niceToMeet: 'Encantado de conocerte. ¿En qué puedo ayudarte?',
  },
  de: {
    identity: (name) => `Ich bin ${name}. Ich beantworte Fragen anhand des Materials, mit dem ich trainiert wurde. Was möchten Sie wissen?`,
    wellbeing: (name) => `Danke, mir geht es gut! Ich bin ${name}. Wobei kann ich Ihnen helfen?`,
    offersHelp: (name) => `Ich bin ${name} und helfe Ihnen gern: Ich beantworte Fragen anhand des Materials, mit dem ich trainiert wurde. Was möchten Sie wissen?`,
    goodbye: (name) => `Auf Wiedersehen, und danke für das Gespräch mit ${name}!`,
    welcome: 'Gern geschehen! Kann ich Ihnen noch bei etwas anderem helfen?',
    hello: (name) => `Hallo! Ich bin ${name}. Wie kann ich Ihnen helfen?`,
    thanked: (firstName) => (firstName ? `Vielen Dank, ${firstName}!` : 'Vielen Dank!'),
    reachAt: (reach) => `Wir melden uns bei Ihnen unter ${reach}.`,
    niceToMeet: 'Schön, Sie kennenzulernen. Wie kann ich Ihnen helfen?',
  },
  fr: {
    identity: (name) => `Je suis ${name}. Je réponds aux questions à partir des documents sur lesquels j’ai été entraîné. Que voulez-vous savoir ?`,
    wellbeing: (name) => `Très bien, merci ! Je suis ${name}. En quoi puis-je vous aider ?`,
    offersHelp: (name) => `Je suis ${name}, là pour vous aider : je réponds aux questions à partir des documents sur lesquels j’ai été entraîné. Que voulez-vous savoir ?`,
    goodbye: (name) => `Au revoir, et merci d’avoir discuté avec ${name} !`,
    welcome: 'Je vous en prie ! Puis-je vous aider pour autre chose ?',
    hello: (name) => `Bonjour ! Je suis ${name}. Comment puis-je vous aider ?`,
    thanked: (firstName) => (firstName ? `Merci, ${firstName} !` : 'Merci !'),
    reachAt: (reach) => `Nous vous recontacterons à ${reach}.`,
    niceToMeet: 'Enchanté. Comment puis-je vous aider ?',
  },
  it: {
    identity: (name) => `Sono ${name}. Rispondo alle domande in base al materiale su cui sono stato addestrato. Cosa vuoi sapere?`,
    wellbeing: (name) => `Sto bene, grazie! Sono ${name}. Come posso aiutarti?`,
    offersHelp: (name) => `Sono ${name} e sono qui per aiutarti: rispondo alle domande in base al materiale su cui sono stato addestrato. Cosa vuoi sapere?`,
    goodbye: (name) => `Arrivederci, e grazie per aver parlato con ${name}!`,
    welcome: 'Prego! Posso aiutarti con qualcos’altro?',
    hello: (name) => `Ciao! Sono ${name}. Come posso aiutarti?`,
    thanked: (firstName) => (firstName ? `Grazie, ${firstName}!` : 'Grazie!'),
    reachAt: (reach) => `Ti ricontatteremo a ${reach}.`,
    niceToMeet: 'Piacere di conoscerti. Come posso aiutarti?',
  },
  nl: {
    identity: (name) => `Ik ben ${name}. Ik beantwoord vragen op basis van het materiaal waarmee ik ben getraind. Wat wil je weten?`,
    wellbeing: (name) => `Goed, dank je! Ik ben ${name}. Waarmee kan ik je helpen?`,
    offersHelp: (name) => `Ik ben ${name} en help je graag: ik beantwoord vragen op basis van het materiaal waarmee ik ben getraind. Wat wil je weten?`,
    goodbye: (name) => `Tot ziens, en bedankt voor het gesprek met ${name}!`,
    welcome: 'Graag gedaan! Kan ik je nog ergens anders mee helpen?',
    hello: (name) => `Hallo! Ik ben ${name}. Hoe kan ik je helpen?`,
    thanked: (firstName) => (firstName ? `Dank je, ${firstName}!` : 'Dank je!'),
    reachAt: (reach) => `We nemen contact met je op via ${reach}.`,
    niceToMeet: 'Leuk je te leren kennen. Hoe kan ik je helpen?',
  },
};
