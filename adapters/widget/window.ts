import { follow, isOpen, type Feedback, type HandoffState, type Message } from './live.js';
import { isConversationId, isWidgetMessage, newConversationId, storage, type WidgetMessage } from './protocol.js';
import { readableOn } from './readable.js';
import { thumbIcon } from './icons.js';
import { renderText } from './text.js';
import { WIDGET_MESSAGE_MAX } from '../../src/domain/widget-message.js';
import { greetingIn, ipLimitMessageIn, leadFormTitleIn, leadLabelIn, waitingMessageIn } from '../../src/settings/default-messages.js';
import { wordsFor } from './words.js';

// The chat window, served at /widget/chatbots/{id}: inside the embed script's iframe, or as a
// full page. Everything is built with DOM calls and text nodes; nothing is parsed as HTML.

type Field = 'name' | 'email' | 'phone';
type WindowConfig = {
  chatbotId: string;
  allowed: boolean;
  name: string;
  theme: 'light' | 'dark';
  userMessageColor: string;
  initialMessages: string[];
  suggestedMessages: string[];
  profilePictureUrl: string | null;
  leadForm: { title: string; fields: { field: Field; label: string }[] } | null;
  /** Set when the chatbot hands conversations to people: `button` shows "Talk to a person". */
  handoff: { button: boolean; waitingMessage: string } | null;
};
type History = { messages: Message[]; handoff: HandoffState | null };

/** How close to the length limit a message gets before the window says how much is left. */
const LENGTH_WARNING = 400;

/** The longest a returning visitor waits for their history before they may send regardless. */
const HISTORY_WAIT_MS = 10_000;

const config = JSON.parse(document.getElementById('switchboard-config')?.textContent ?? '{}') as WindowConfig;
const base = `/widget/chatbots/${encodeURIComponent(config.chatbotId)}`;
const embedded = window.parent !== window;
/** The embedding page's origin: the browser's own record when it keeps one, else what the embed script said. */
const hostOrigin = embedded
  ? (location.ancestorOrigins?.[0] ?? new URLSearchParams(location.search).get('host') ?? undefined)
  : undefined;
/** Opened by the embed script, which hands it the conversation and listens for its messages (framed directly, nothing does). */
const byScript = embedded && isConversationId(new URLSearchParams(location.hash.slice(1)).get('conversation'));
const saved = storage();
const conversationKey = `switchboard:${config.chatbotId}:conversation`;
/** The embed script passes the page's language on; a window opened as a page has the browser's alone. */
const { lang, words } = wordsFor([new URLSearchParams(location.search).get('lang'), ...navigator.languages]);

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}

/**
 * Before `node` is removed or hidden: a focus inside it goes to the message field, where a
 * keyboard user carries on, rather than to the page's body, from where they would have to find
 * their way back.
 */
function moveFocusOutOf(node: Element): void {
  if (node.contains(document.activeElement)) input.focus();
}

/** The conversation to continue, and whether it may have a history (one made just now has none). */
function startingConversation(): { id: string; known: boolean } {
  const fromHost = new URLSearchParams(location.hash.slice(1));
  const id = fromHost.get('conversation');
  if (embedded && isConversationId(id)) return { id, known: !fromHost.has('new') };
  const stored = saved.get(conversationKey);
  if (!embedded && isConversationId(stored)) return { id: stored, known: true };
  return { id: newConversationId(), known: false };
}

document.documentElement.lang = lang;
document.documentElement.dataset.theme = config.theme;
document.documentElement.dataset.mode = embedded ? 'embedded' : 'page';
document.documentElement.style.setProperty('--user-color', config.userMessageColor);
document.documentElement.style.setProperty('--user-text', readableOn(config.userMessageColor));

const starting = startingConversation();
let conversationId = starting.id;
let sending = false;
let replies = 0;
let leadOffered = false;
/** The last message of the conversation the window knows of: where live replies resume. */
let lastMessageId: string | undefined;
/** The visitor's messages saved after `lastMessageId` that the hub named no id for (a handoff's silent turns). */
let unnamedSince = 0;
let handoff: HandoffState | null = null;
/** Whether "Talk to a person" is offered: as the window was served, until the hub says handoff is off. */
let handoffOffered = config.handoff?.button ?? false;
let live: { stop(): void } | undefined;

const header = element('header', { className: 'header' });
if (config.profilePictureUrl) header.append(element('img', { className: 'avatar', src: config.profilePictureUrl, alt: '' }));
header.append(element('h1', { className: 'title' }, config.name));
const restart = element('button', { type: 'button', className: 'icon-button', title: words.newConversation }, '+');
restart.setAttribute('aria-label', words.newConversation);
header.append(restart);
if (byScript) {
  const close = element('button', { type: 'button', className: 'icon-button', title: words.closeChat }, '×');
  close.setAttribute('aria-label', words.closeChat);
  close.addEventListener('click', () => postToHost({ type: 'switchboard:close' }));
  header.append(close);
}

const log = element('div', { className: 'log' });
log.setAttribute('role', 'log');
log.setAttribute('aria-live', 'polite');
log.setAttribute('aria-label', words.conversationWith(config.name));
const suggestions = element('div', { className: 'suggestions' });
// No maxLength: the browser would cut a longer paste silently; the length note says what is over.
const input = element('input', { type: 'text', className: 'input', autocomplete: 'off', placeholder: words.typeAMessage, dir: 'auto' });
input.setAttribute('aria-label', words.message);
const lengthNote = element('p', { className: 'length-note', id: 'length-note' });
lengthNote.setAttribute('role', 'status');
input.setAttribute('aria-describedby', lengthNote.id);
const send = element('button', { type: 'submit', className: 'send' }, words.send);
const composer = element('form', { className: 'composer' }, input, send);
const talk = element('button', { type: 'button', className: 'link-button' }, words.talkToAPerson);
const handoffStatus = element('p', { className: 'handoff-status' });
handoffStatus.setAttribute('role', 'status');
const handoffBar = element('div', { className: 'handoff' }, talk, handoffStatus);

if (!config.allowed) {
  document.body.append(header, element('p', { className: 'refused' }, words.notAvailable));
  restart.remove();
} else {
  document.body.append(header, log, suggestions, handoffBar, lengthNote, composer);
  showHandoff(null);
  void begin();
}

async function begin(): Promise<void> {
  showGreeting();
  // Asking for a conversation made just now would only answer 404 (a line in the hub's log).
  if (!starting.known) return;
  // A message sent before the history shows would come above it, and again within it (on a slow
  // network a returning visitor types at once): sending waits, the text staying in the field.
  setSending(true);
  const loading = conversationId;
  try {
    const history = await readHistory(loading);
    // Unless "+" started a new conversation meanwhile.
    if (history && conversationId === loading) showHistory(history);
  } finally {
    setSending(false);
  }
}

/** The conversation's saved messages and handoff; null when the hub has none, undefined when it cannot say. */
async function readHistory(id: string): Promise<History | null | undefined> {
  const response = await fetch(`${base}/conversations/${id}`, { signal: AbortSignal.timeout(HISTORY_WAIT_MS) }).catch(() => undefined);
  if (response?.status === 404) return null;
  return response?.ok ? ((await response.json().catch(() => undefined)) as History | undefined) : undefined;
}

/**
 * The visitor's other tab may have carried the conversation on (asked for a person, written to
 * the team, whose stream here brings the team's side alone): looked at again, this window shows
 * the conversation afresh if it changed, so the visitor's next message lands after what they
 * missed. One the hub no longer has (the business erased it) is shown no more: a new one begins.
 */
async function catchUp(): Promise<void> {
  /** Where the window is: one that moved on while reading (a message sent, a reply come) shows more than what it read. */
  const place = () => `${conversationId} ${lastMessageId} ${unnamedSince}`;
  const notNow = () => sending || lastMessageId === undefined;
  if (notNow()) return;
  const reading = place();
  const history = await readHistory(conversationId);
  if (history === undefined || notNow() || place() !== reading) return;
  if (history === null) return startAfresh();
  const since = history.messages.length - 1 - history.messages.findIndex((message) => message.id === lastMessageId);
  if (since === unnamedSince) return;
  // A live stream goes on from after what is shown now.
  stopListening();
  showAfresh(history);
}

/** The conversation shown again from its start, as the hub has it now. */
function showAfresh(history: History): void {
  showGreeting();
  showHistory(history);
}

function showHistory(history: History): void {
  const { messages } = history;
  if (messages.length > 0) suggestions.replaceChildren();
  for (const message of messages) show(message);
  replies = messages.filter((message) => message.role === 'assistant').length;
  shownUpTo(messages.at(-1)?.id);
  showHandoff(history.handoff);
  if (isOpen(history.handoff)) listen();
}

function showGreeting(): void {
  log.replaceChildren();
  for (const text of greetingIn(config.initialMessages, lang)) bubble('assistant', text);
  suggestions.replaceChildren(
    ...config.suggestedMessages.map((text) => {
      const button = element('button', { type: 'button', className: 'suggestion' }, text);
      button.addEventListener('click', () => void ask(text));
      return button;
    }),
  );
}

function bubble(role: Message['role'], text: string): HTMLElement {
  // dir auto: each message reads in its own direction (Arabic right to left, Spanish left to right).
  const node = element('div', { className: `message ${role}`, dir: 'auto' });
  // Said before the message by screen readers (the window's styles keep it out of sight), which otherwise read the log as one voice.
  node.dataset.speaker = role === 'user' ? words.you : config.name;
  renderText(node, text);
  log.append(node);
  log.scrollTop = log.scrollHeight;
  return node;
}

/** A saved message; a team member's reply is headed with their name, an answer of the chatbot's followed by thumbs up and down. */
function show({ id, role, content, author, kind, feedback }: Message): void {
  // A waiting or offline message the owner left empty says nothing: no bubble (an empty one reads as typing).
  if (!content) return;
  if (!author) {
    const shown = bubble(role, content);
    if (role === 'assistant' && kind !== 'handoff') offerRating(shown, id, feedback);
    return;
  }
  // Blocks of their own direction: an Arabic reply's lines, and an Arabic name, start from the right.
  const text = element('div', { dir: 'auto' });
  renderText(text, content);
  log.append(element('div', { className: 'message assistant human' }, element('span', { className: 'author', dir: 'auto' }, author.name), text));
  log.scrollTop = log.scrollHeight;
}

/** The button while nobody from the team is asked for; what is happening while someone is. */
function showHandoff(state: HandoffState | null): void {
  handoff = state;
  const open = isOpen(state);
  if (open) moveFocusOutOf(talk);
  talk.hidden = open || !handoffOffered;
  handoffStatus.textContent = open ? statusOf(state) : '';
  handoffBar.hidden = talk.hidden && !open;
}

function statusOf(state: HandoffState | null): string {
  return state?.taken_by ? words.chattingWith(state.taken_by) : words.waitingForTheTeam;
}

/** The team's replies and the handoff's changes, live, until the handoff is over. */
function listen(): void {
  if (live) return;
  live = follow(`${base}/conversations/${conversationId}`, lastMessageId, {
    reply(message) {
      shownUpTo(message.id);
      show(message);
    },
    handoff(state) {
      if (!isOpen(state)) live = undefined;
      const missed = state?.status === 'missed' && handoff?.status !== 'missed';
      showHandoff(state);
      // Nobody came: the details form is offered again, even if it was dismissed.
      if (missed) offerLeadForm(true);
    },
  });
}

/** The window shows the conversation up to message `id`. */
function shownUpTo(id: string | undefined): void {
  lastMessageId = id;
  unnamedSince = 0;
}

function stopListening(): void {
  live?.stop();
  live = undefined;
}

/**
 * Whether a reply may mean the conversation is with the team: it is silent, or it ends with the
 * waiting message. Where the owner left that message empty, a handoff after declined questions
 * ends its reply with nothing to tell it by, so every reply may: the window asks (listen), and the
 * stream, whose first event is the handoff's state, closes at once when none is open.
 */
function mayHandOff(reply: string): boolean {
  if (reply === '') return true;
  if (config.handoff === null) return false;
  const waiting = waitingMessageIn(config.handoff.waitingMessage, lang);
  return waiting === '' || reply.endsWith(waiting);
}

async function talkToPerson(): Promise<void> {
  if (sending) return;
  setSending(true);
  moveFocusOutOf(suggestions);
  suggestions.replaceChildren();
  try {
    const response = await fetch(`${base}/conversations/${conversationId}/handoff`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // The request is saved in the words the button showed.
      body: JSON.stringify({ host: hostOrigin, lang }),
    }).catch(() => undefined);
    if (response?.status === 400) {
      // The owner turned handoff off since the window was served: the button goes.
      handoffOffered = false;
      showHandoff(handoff);
      return notice(bubble('assistant', ''), words.noTeam);
    }
    if (!response?.ok) return notice(bubble('assistant', ''), (await overLimit(response)) ?? words.unreachable);
    const asked = (await response.json()) as { handoff: HandoffState; messages: Message[] };
    for (const message of asked.messages) show(message);
    const request = asked.messages.at(-1)?.id;
    if (request) shownUpTo(request);
    showHandoff(asked.handoff);
    listen();
  } finally {
    setSending(false);
  }
}

/** What the hub said when it refused a call over the chatbot's `ipLimit` (a default message in the window's language). */
async function overLimit(response: Response | undefined): Promise<string | undefined> {
  if (response?.status !== 429) return undefined;
  const { message } = (await response.json().catch(() => ({}))) as { message?: string };
  return message ? ipLimitMessageIn(message, lang) : undefined;
}

/**
 * Marks Send and "Talk to a person" unavailable while a reply or request is under way (`sending`
 * keeps them from acting): aria-disabled, as a disabled button would lose the focus of a keyboard
 * user who pressed it.
 */
function setSending(busy: boolean): void {
  sending = busy;
  for (const button of [send, talk]) button.setAttribute('aria-disabled', String(busy));
}

async function ask(text: string): Promise<void> {
  if (sending || !text.trim()) return;
  moveFocusOutOf(suggestions);
  suggestions.replaceChildren();
  bubble('user', text);
  await answer(text);
}

/** Streams the reply to `text` into a new bubble; failures become a notice, with a retry when it may help. */
async function answer(text: string): Promise<void> {
  setSending(true);
  const reply = bubble('assistant', '');
  reply.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(`${base}/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // The hub says a handoff's default waiting message in the window's language.
      body: JSON.stringify({ conversationId, message: text, host: hostOrigin, lang }),
    });
    if (!response.ok || !response.body) {
      const refusal = await overLimit(response);
      if (refusal) return notice(reply, refusal);
      if (response.status === 403) return notice(reply, words.quotaReached);
      return notice(reply, words.unreachable, text);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let content = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      content += chunk.value;
      renderText(reply, content);
      log.scrollTop = log.scrollHeight;
    }
    const saved = response.headers.get('X-Message-Id');
    if (saved) shownUpTo(saved);
    else unnamedSince += 1;
    if (mayHandOff(content)) listen();
    // While the team has the conversation the chatbot says nothing: no bubble.
    if (content === '') return reply.remove();
    // The waiting message answers nothing: nothing to rate.
    if (saved && response.headers.get('X-Message-Kind') !== 'handoff') offerRating(reply, saved);
    replies += 1;
    if (replies === 1) offerLeadForm();
  } catch {
    notice(reply, words.unreachable, text);
  } finally {
    reply.removeAttribute('aria-busy');
    setSending(false);
  }
}

/**
 * Thumbs up and down after the answer `shown` (saved as `messageId`), toggle buttons whose pressed one is the
 * visitor's rating (`given`, when they rated it before); a press of the other replaces it, as the
 * API's feedback does.
 */
function offerRating(shown: HTMLElement, messageId: string, given?: Feedback): void {
  const conversation = conversationId;
  let current = given;
  const status = element('span', { className: 'rating-status' });
  status.setAttribute('role', 'status');
  const thumbs = (['up', 'down'] as const).map((feedback) => {
    const button = element('button', { type: 'button', className: 'rate' }, thumbIcon(feedback));
    button.setAttribute('aria-label', feedback === 'up' ? words.helpful : words.notHelpful);
    button.addEventListener('click', () => void rate(feedback));
    return { feedback, button };
  });
  const showPressed = () => {
    for (const { feedback, button } of thumbs) button.setAttribute('aria-pressed', String(feedback === current));
  };
  async function rate(feedback: Feedback): Promise<void> {
    if (feedback === current) return;
    const response = await fetch(`${base}/conversations/${conversation}/messages/${encodeURIComponent(messageId)}/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ feedback, host: hostOrigin }),
    }).catch(() => undefined);
    status.textContent = response?.ok ? '' : ((await overLimit(response)) ?? words.ratingFailed);
    if (!response?.ok) return;
    current = feedback;
    showPressed();
  }
  showPressed();
  const group = element('div', { className: 'rating' }, ...thumbs.map(({ button }) => button), status);
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', words.rateThisAnswer);
  shown.after(group);
}

function notice(reply: HTMLElement, message: string, retryText?: string): void {
  reply.className = 'message notice';
  reply.setAttribute('role', 'alert');
  reply.replaceChildren(message);
  if (retryText === undefined) return;
  const retry = element('button', { type: 'button', className: 'retry' }, words.retry);
  retry.addEventListener('click', () => {
    moveFocusOutOf(reply);
    reply.remove();
    void retryAnswer(retryText);
  });
  reply.append(' ', retry);
}

/**
 * A retry after an answer that went missing: the hub may have taken the message in before the
 * connection dropped, so the history is read first, and shown when it has the message, rather
 * than the team or the chatbot getting it twice.
 */
async function retryAnswer(text: string): Promise<void> {
  if (sending) return;
  setSending(true);
  const reading = conversationId;
  const history = await readHistory(reading);
  setSending(false);
  if (history && conversationId === reading && takenIn(history, text)) showAfresh(history);
  else await answer(text);
}

/**
 * Whether the visitor's `text` is among the messages saved since the last this window knows of,
 * after the ones it sent unnamed meanwhile (a handoff's silent turns: an earlier "Hello?" is not this one).
 */
function takenIn(history: History, text: string): boolean {
  const since = history.messages.slice(history.messages.findIndex((message) => message.id === lastMessageId) + 1);
  const asked = since.filter((message) => message.role === 'user').slice(unnamedSince);
  return asked.some((message) => message.content === text.trim());
}

function offerLeadForm(again = false): void {
  const form = config.leadForm;
  if (!form || (leadOffered && !again)) return;
  leadOffered = true;
  for (const offered of log.querySelectorAll('form.lead')) {
    moveFocusOutOf(offered);
    offered.remove();
  }
  const types: Record<Field, string> = { name: 'text', email: 'email', phone: 'tel' };
  const autocomplete: Record<Field, string> = { name: 'name', email: 'email', phone: 'tel' };
  const title = leadFormTitleIn(form.title, lang);
  const inputs = form.fields.map(({ field, label }) => {
    const control = element('input', { name: field, type: types[field], autocomplete: autocomplete[field] as AutoFill, dir: 'auto' });
    // The server's rule. Browsers compile a pattern with the v flag, where ( ) . - in a class must
    // be escaped: unescaped, the pattern is invalid and silently ignored.
    if (field === 'phone') control.pattern = '\\+?[0-9\\s\\(\\)\\.\\-]{6,20}';
    explainInvalid(control, field);
    return element('label', { className: 'lead-field' }, element('span', {}, leadLabelIn(field, label, lang)), control);
  });
  const status = element('p', { className: 'lead-status' });
  status.setAttribute('role', 'status');
  const submit = element('button', { type: 'submit', className: 'send' }, words.submit);
  const dismiss = element('button', { type: 'button', className: 'link-button' }, words.noThanks);
  const lead = element('form', { className: 'lead' }, element('h2', {}, title), ...inputs, status, element('div', { className: 'lead-actions' }, submit, dismiss));
  lead.setAttribute('aria-label', title);
  dismiss.addEventListener('click', () => {
    moveFocusOutOf(lead);
    lead.remove();
  });
  lead.addEventListener('submit', (event) => {
    event.preventDefault();
    void submitLead(lead, status);
  });
  log.append(lead);
  log.scrollTop = log.scrollHeight;
}

/** The browser's refusal of an email or phone typed wrong says what the field takes, in the window's language. */
function explainInvalid(control: HTMLInputElement, field: Field): void {
  if (field === 'name') return;
  control.addEventListener('input', () => {
    // Cleared first: the field's own checks (type, pattern) are read again without the last message.
    control.setCustomValidity('');
    const wrong = control.validity.typeMismatch || control.validity.patternMismatch;
    control.setCustomValidity(wrong ? (field === 'email' ? words.anEmailAddress : words.aPhoneNumber) : '');
  });
}

async function submitLead(lead: HTMLFormElement, status: HTMLElement): Promise<void> {
  const values = Object.fromEntries(new FormData(lead)) as Partial<Record<Field, string>>;
  if (!values.email && !values.phone) {
    status.textContent = words.emailOrPhone;
    return;
  }
  const response = await fetch(`${base}/leads`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ conversationId, ...values, host: hostOrigin }),
  }).catch(() => undefined);
  if (!response?.ok) {
    status.textContent = (await overLimit(response)) ?? (response?.status === 400 ? words.checkTheDetails : words.unreachable);
    return;
  }
  moveFocusOutOf(lead);
  lead.replaceChildren(element('p', { className: 'lead-status' }, words.thanks));
}

function postToHost(message: WidgetMessage): void {
  if (byScript && hostOrigin) window.parent.postMessage(message, hostOrigin);
}

talk.addEventListener('click', () => void talkToPerson());

restart.addEventListener('click', () => {
  // The visitor leaves the team's conversation: the team's request ends rather than waiting for them.
  if (live || isOpen(handoff)) leaveHandoff(conversationId);
  startAfresh();
  input.focus();
});

/** Ends the conversation's handoff; kept alive should the window close at once. */
function leaveHandoff(id: string): void {
  void fetch(`${base}/conversations/${id}/handoff/end`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ host: hostOrigin }),
    keepalive: true,
  }).catch(() => undefined);
}

/** A new conversation, shown from its greeting; the page (or the host's) keeps it from now on. */
function startAfresh(): void {
  stopListening();
  conversationId = newConversationId();
  replies = 0;
  leadOffered = false;
  shownUpTo(undefined);
  showHandoff(null);
  if (embedded) postToHost({ type: 'switchboard:conversation', conversationId });
  else saved.set(conversationKey, conversationId);
  showGreeting();
}

if (!embedded) saved.set(conversationKey, conversationId);

/**
 * Near the limit, how many characters are left; over it, how many too many (the field marked
 * invalid). Answers whether the message fits. `refused`: Send was pressed, and the note is an alert.
 */
function showLength(refused = false): boolean {
  const count = (n: number) => n.toLocaleString(lang);
  const length = input.value.trim().length;
  const over = length - WIDGET_MESSAGE_MAX;
  input.setAttribute('aria-invalid', String(over > 0));
  lengthNote.setAttribute('role', refused && over > 0 ? 'alert' : 'status');
  if (over > 0) lengthNote.textContent = words.tooLong(count(over), count(WIDGET_MESSAGE_MAX));
  else lengthNote.textContent = -over <= LENGTH_WARNING ? words.charactersLeft(count(-over)) : '';
  return over <= 0;
}

input.addEventListener('input', () => showLength());

composer.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value;
  if (sending || !text.trim()) return;
  // Over the limit nothing is sent, and nothing of the text is lost: it stays to be shortened.
  if (!showLength(true)) return;
  input.value = '';
  showLength();
  void ask(text);
});

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') void catchUp();
});
window.addEventListener('focus', () => void catchUp());

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') postToHost({ type: 'switchboard:close' });
});

window.addEventListener('message', (event) => {
  if (event.source !== window.parent || event.origin !== hostOrigin || !isWidgetMessage(event.data)) return;
  if (event.data.type === 'switchboard:focus') input.focus();
  if (event.data.type === 'switchboard:focus-edge') (event.data.edge === 'first' ? restart : send).focus();
});

// Ready to type: in a window the embed opened (it focuses the frame as it opens it), and as a page of
// its own where a keyboard is at hand. Not where the main pointer is a finger: nobody has asked to
// type yet, and an on-screen keyboard would cover the greeting and the suggested messages.
if (embedded || !window.matchMedia('(pointer: coarse)').matches) input.focus();
