import { PERSON_ASKED } from '../../src/domain/person-asked.js';
import type { Language } from '../../src/settings/languages.js';

// The widget's own words (its buttons, labels and notices; the chatbot's messages are the owner's)
// in the languages it speaks. The language is the first of the visitor's that it speaks: the
// embedding page's `lang` (the site's language, which its owner chose), then the browser's.

export type Words = {
  newConversation: string;
  closeChat: string;
  conversationWith(name: string): string;
  typeAMessage: string;
  /** Who wrote the visitor's messages, as a screen reader says it before each. */
  you: string;
  message: string;
  send: string;
  talkToAPerson: string;
  notAvailable: string;
  chattingWith(name: string): string;
  waitingForTheTeam: string;
  noTeam: string;
  quotaReached: string;
  unreachable: string;
  retry: string;
  /** The details form's button: named apart from Send, as a screen reader's list of buttons shows both. */
  submit: string;
  noThanks: string;
  emailOrPhone: string;
  checkTheDetails: string;
  /** What the details form's email field takes (the browser's own message says it in the browser's language, if at all). */
  anEmailAddress: string;
  /** What its phone field takes ("Please match the requested format" says nothing of it). */
  aPhoneNumber: string;
  thanks: string;
  charactersLeft(left: string): string;
  tooLong(over: string, max: string): string;
  rateThisAnswer: string;
  helpful: string;
  notHelpful: string;
  ratingFailed: string;
  openChatWith(name: string): string;
  closeChatWith(name: string): string;
  chatWith(name: string): string;
};

const english: Words = {
  newConversation: 'New conversation',
  closeChat: 'Close chat',
  conversationWith: (name) => `Conversation with ${name}`,
  typeAMessage: 'Type a message…',
  you: 'You',
  message: 'Message',
  send: 'Send',
  talkToAPerson: PERSON_ASKED.en,
  notAvailable: 'This chat is not available on this website.',
  chattingWith: (name) => `Chatting with ${name}`,
  waitingForTheTeam: 'Waiting for someone from the team…',
  noTeam: 'The team is not taking conversations in this chat right now.',
  quotaReached: 'This chatbot cannot answer more messages right now. Please try again later.',
  unreachable: 'The chat could not be reached.',
  retry: 'Retry',
  submit: 'Submit',
  noThanks: 'No thanks',
  emailOrPhone: 'Please give an email address or a phone number.',
  checkTheDetails: 'Please check the details.',
  anEmailAddress: 'Please give an email address, such as name@example.com.',
  aPhoneNumber: 'Please give a phone number: 6 to 20 digits, spaces and + ( ) . -',
  thanks: 'Thank you! We will be in touch.',
  charactersLeft: (left) => `${left} characters left`,
  tooLong: (over, max) => `${over} characters too many: a message holds at most ${max}. Shorten it to send it.`,
  rateThisAnswer: 'Rate this answer',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  ratingFailed: 'Your rating could not be saved.',
  openChatWith: (name) => `Open chat with ${name}`,
  closeChatWith: (name) => `Close chat with ${name}`,
  chatWith: (name) => `Chat with ${name}`,
};

const spanish: Words = {
  newConversation: 'Nueva conversación',
  closeChat: 'Cerrar el chat',
  conversationWith: (name) => `Conversación con ${name}`,
  typeAMessage: 'Escribe un mensaje…',
  you: 'Tú',
  message: 'Mensaje',
  send: 'Enviar',
  talkToAPerson: PERSON_ASKED.es,
  notAvailable: 'Este chat no está disponible en este sitio web.',
  chattingWith: (name) => `Hablando con ${name}`,
  waitingForTheTeam: 'Esperando a alguien del equipo…',
  noTeam: 'El equipo no atiende conversaciones en este chat en este momento.',
  quotaReached: 'Este chatbot no puede responder más mensajes ahora mismo. Inténtalo de nuevo más tarde.',
  unreachable: 'No se ha podido conectar con el chat.',
  retry: 'Reintentar',
  submit: 'Enviar mis datos',
  noThanks: 'No, gracias',
  emailOrPhone: 'Indica un correo electrónico o un número de teléfono.',
  checkTheDetails: 'Revisa los datos.',
  anEmailAddress: 'Indica una dirección de correo electrónico, como nombre@ejemplo.com.',
  aPhoneNumber: 'Indica un número de teléfono: de 6 a 20 cifras, espacios y + ( ) . -',
  thanks: '¡Gracias! Nos pondremos en contacto contigo.',
  charactersLeft: (left) => `Quedan ${left} caracteres`,
  tooLong: (over, max) => `Sobran ${over} caracteres: un mensaje admite como máximo ${max}. Acórtalo para enviarlo.`,
  rateThisAnswer: 'Valora esta respuesta',
  helpful: 'Útil',
  notHelpful: 'No es útil',
  ratingFailed: 'No se ha podido guardar tu valoración.',
  openChatWith: (name) => `Abrir el chat con ${name}`,
  closeChatWith: (name) => `Cerrar el chat con ${name}`,
  chatWith: (name) => `Chat con ${name}`,
};

const german: Words = {
  newConversation: 'Neue Unterhaltung',
  closeChat: 'Chat schließen',
  conversationWith: (name) => `Unterhaltung mit ${name}`,
  typeAMessage: 'Nachricht eingeben…',
  you: 'Sie',
  message: 'Nachricht',
  send: 'Senden',
  talkToAPerson: PERSON_ASKED.de,
  notAvailable: 'Dieser Chat ist auf dieser Website nicht verfügbar.',
  chattingWith: (name) => `Im Gespräch mit ${name}`,
  waitingForTheTeam: 'Wir verbinden Sie mit jemandem aus dem Team…',
  noTeam: 'Das Team nimmt in diesem Chat gerade keine Gespräche an.',
  quotaReached: 'Dieser Chatbot kann gerade keine weiteren Nachrichten beantworten. Bitte versuchen Sie es später erneut.',
  unreachable: 'Der Chat ist nicht erreichbar.',
  retry: 'Erneut versuchen',
  submit: 'Absenden',
  noThanks: 'Nein, danke',
  emailOrPhone: 'Bitte geben Sie eine E-Mail-Adresse oder eine Telefonnummer an.',
  checkTheDetails: 'Bitte prüfen Sie die Angaben.',
  anEmailAddress: 'Bitte geben Sie eine E-Mail-Adresse an, etwa name@beispiel.de.',
  aPhoneNumber: 'Bitte geben Sie eine Telefonnummer an: 6 bis 20 Ziffern, Leerzeichen und + ( ) . -',
  thanks: 'Vielen Dank! Wir melden uns bei Ihnen.',
  charactersLeft: (left) => `Noch ${left} Zeichen`,
  tooLong: (over, max) => `${over} Zeichen zu viel: Eine Nachricht hat höchstens ${max} Zeichen. Kürzen Sie sie, um sie zu senden.`,
  rateThisAnswer: 'Diese Antwort bewerten',
  helpful: 'Hilfreich',
  notHelpful: 'Nicht hilfreich',
  ratingFailed: 'Ihre Bewertung konnte nicht gespeichert werden.',
  openChatWith: (name) => `Chat mit ${name} öffnen`,
  closeChatWith: (name) => `Chat mit ${name} schließen`,
  chatWith: (name) => `Chat mit ${name}`,
};

const french: Words = {
  newConversation: 'Nouvelle conversation',
  closeChat: 'Fermer le chat',
  conversationWith: (name) => `Conversation avec ${name}`,
  typeAMessage: 'Écrivez un message…',
  you: 'Vous',
  message: 'Message',
  send: 'Envoyer',
  talkToAPerson: PERSON_ASKED.fr,
  notAvailable: 'Ce chat n’est pas disponible sur ce site.',
  chattingWith: (name) => `En conversation avec ${name}`,
  waitingForTheTeam: 'En attente d’un membre de l’équipe…',
  noTeam: 'L’équipe ne prend pas de conversations dans ce chat pour le moment.',
  quotaReached: 'Ce chatbot ne peut plus répondre pour le moment. Veuillez réessayer plus tard.',
  unreachable: 'Le chat est injoignable.',
  retry: 'Réessayer',
  submit: 'Valider',
  noThanks: 'Non merci',
  emailOrPhone: 'Veuillez indiquer une adresse e-mail ou un numéro de téléphone.',
  checkTheDetails: 'Veuillez vérifier vos coordonnées.',
  anEmailAddress: 'Veuillez indiquer une adresse e-mail, par exemple nom@exemple.fr.',
  aPhoneNumber: 'Veuillez indiquer un numéro de téléphone : 6 à 20 chiffres, espaces et + ( ) . -',
  thanks: 'Merci ! Nous vous recontacterons.',
  charactersLeft: (left) => `Encore ${left} caractères`,
  tooLong: (over, max) => `${over} caractères de trop : un message compte au plus ${max} caractères. Raccourcissez-le pour l’envoyer.`,
  rateThisAnswer: 'Évaluer cette réponse',
  helpful: 'Utile',
  notHelpful: 'Pas utile',
  ratingFailed: 'Votre avis n’a pas pu être enregistré.',
  openChatWith: (name) => `Ouvrir le chat avec ${name}`,
  closeChatWith: (name) => `Fermer le chat avec ${name}`,
  chatWith: (name) => `Chat avec ${name}`,
};

const italian: Words = {
  newConversation: 'Nuova conversazione',
  closeChat: 'Chiudi la chat',
  conversationWith: (name) => `Conversazione con ${name}`,
  typeAMessage: 'Scrivi un messaggio…',
  you: 'Tu',
  message: 'Messaggio',
  send: 'Invia',
  talkToAPerson: PERSON_ASKED.it,
  notAvailable: 'Questa chat non è disponibile su questo sito.',
  chattingWith: (name) => `In chat con ${name}`,
  waitingForTheTeam: 'In attesa di qualcuno del team…',
  noTeam: 'Al momento il team non risponde in questa chat.',
  quotaReached: 'Questo chatbot non può rispondere ad altri messaggi in questo momento. Riprova più tardi.',
  unreachable: 'Impossibile raggiungere la chat.',
  retry: 'Riprova',
  submit: 'Invia i dati',
  noThanks: 'No, grazie',
  emailOrPhone: 'Indica un indirizzo email o un numero di telefono.',
  checkTheDetails: 'Controlla i dati inseriti.',
  anEmailAddress: 'Indica un indirizzo email, ad esempio nome@esempio.it.',
  aPhoneNumber: 'Indica un numero di telefono: da 6 a 20 cifre, spazi e + ( ) . -',
  thanks: 'Grazie! Ti ricontatteremo presto.',
  charactersLeft: (left) => `Ancora ${left} caratteri`,
  tooLong: (over, max) => `${over} caratteri di troppo: un messaggio ha al massimo ${max} caratteri. Accorcialo per inviarlo.`,
  rateThisAnswer: 'Valuta questa risposta',
  helpful: 'Utile',
  notHelpful: 'Non utile',
  ratingFailed: 'Non è stato possibile salvare la tua valutazione.',
  openChatWith: (name) => `Apri la chat con ${name}`,
  closeChatWith: (name) => `Chiudi la chat con ${name}`,
  chatWith: (name) => `Chat con ${name}`,
};

const dutch: Words = {
  newConversation: 'Nieuw gesprek',
  closeChat: 'Chat sluiten',
  conversationWith: (name) => `Gesprek met ${name}`,
  typeAMessage: 'Typ een bericht…',
  you: 'Jij',
  message: 'Bericht',
  send: 'Versturen',
  talkToAPerson: PERSON_ASKED.nl,
  notAvailable: 'Deze chat is niet beschikbaar op deze website.',
  chattingWith: (name) => `In gesprek met ${name}`,
  waitingForTheTeam: 'Wachten op iemand van het team…',
  noTeam: 'Het team neemt op dit moment geen gesprekken aan in deze chat.',
  quotaReached: 'Deze chatbot kan nu geen berichten meer beantwoorden. Probeer het later opnieuw.',
  unreachable: 'De chat is niet bereikbaar.',
  retry: 'Opnieuw proberen',
  submit: 'Gegevens versturen',
  noThanks: 'Nee, bedankt',
  emailOrPhone: 'Vul een e-mailadres of een telefoonnummer in.',
  checkTheDetails: 'Controleer de gegevens.',
  anEmailAddress: 'Vul een e-mailadres in, zoals naam@voorbeeld.nl.',
  aPhoneNumber: 'Vul een telefoonnummer in: 6 tot 20 cijfers, spaties en + ( ) . -',
  thanks: 'Bedankt! We nemen contact met je op.',
  charactersLeft: (left) => `Nog ${left} tekens`,
  tooLong: (over, max) => `${over} tekens te veel: een bericht heeft hoogstens ${max} tekens. Maak het korter om het te versturen.`,
  rateThisAnswer: 'Beoordeel dit antwoord',
  helpful: 'Nuttig',
  notHelpful: 'Niet nuttig',
  ratingFailed: 'Je beoordeling kon niet worden opgeslagen.',
  openChatWith: (name) => `Chat met ${name} openen`,
  closeChatWith: (name) => `Chat met ${name} sluiten`,
  chatWith: (name) => `Chat met ${name}`,
};

const WORDS: Record<Language, Words> = { en: english, es: spanish, de: german, fr: french, it: italian, nl: dutch };

/**
 * The first of `wanted` (language tags, best first: `es-ES`, `de`; empty or missing ones are
 * passed over) that the widget speaks, by its primary code, and its words; English otherwise.
 */
export function wordsFor(wanted: readonly (string | null | undefined)[]): { lang: Language; words: Words } {
  for (const tag of wanted) {
    const lang = tag?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
    if (Object.hasOwn(WORDS, lang)) return { lang: lang as Language, words: WORDS[lang as Language] };
  }
  return { lang: 'en', words: english };
}
