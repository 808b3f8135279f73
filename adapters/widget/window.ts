import { isConversationId, isWidgetMessage, newConversationId, storage, type WidgetMessage } from './protocol.js';
import { renderText } from './text.js';

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
};
type Turn = { role: 'user' | 'assistant'; content: string };

const QUOTA_TEXT = 'This chatbot cannot answer more messages right now. Please try again later.';
const UNREACHABLE_TEXT = 'The chat could not be reached.';

const config = JSON.parse(document.getElementById('switchboard-config')?.textContent ?? '{}') as WindowConfig;
const base = `/widget/chatbots/${encodeURIComponent(config.chatbotId)}`;
const embedded = window.parent !== window;
/** The embedding page's origin: the browser's own record when it keeps one, else what the embed script said. */
const hostOrigin = embedded
  ? (location.ancestorOrigins?.[0] ?? new URLSearchParams(location.search).get('host') ?? undefined)
  : undefined;
const saved = storage();
const conversationKey = `switchboard:${config.chatbotId}:conversation`;

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}

function startingConversationId(): string {
  const fromHost = new URLSearchParams(location.hash.slice(1)).get('conversation');
  if (embedded && isConversationId(fromHost)) return fromHost;
  const stored = saved.get(conversationKey);
  return !embedded && isConversationId(stored) ? stored : newConversationId();
}

document.documentElement.dataset.theme = config.theme;
document.documentElement.dataset.mode = embedded ? 'embedded' : 'page';
document.documentElement.style.setProperty('--user-color', config.userMessageColor);

let conversationId = startingConversationId();
let sending = false;
let replies = 0;
let leadOffered = false;

const header = element('header', { className: 'header' });
if (config.profilePictureUrl) header.append(element('img', { className: 'avatar', src: config.profilePictureUrl, alt: '' }));
header.append(element('h1', { className: 'title' }, config.name));
const restart = element('button', { type: 'button', className: 'icon-button', title: 'New conversation' }, '+');
restart.setAttribute('aria-label', 'New conversation');
header.append(restart);
if (embedded) {
  const close = element('button', { type: 'button', className: 'icon-button', title: 'Close chat' }, '×');
  close.setAttribute('aria-label', 'Close chat');
  close.addEventListener('click', () => postToHost({ type: 'switchboard:close' }));
  header.append(close);
}

const log = element('div', { className: 'log' });
log.setAttribute('role', 'log');
log.setAttribute('aria-live', 'polite');
log.setAttribute('aria-label', `Conversation with ${config.name}`);
const suggestions = element('div', { className: 'suggestions' });
const input = element('input', { type: 'text', className: 'input', autocomplete: 'off', maxLength: 4000, placeholder: 'Type a message…' });
input.setAttribute('aria-label', 'Message');
const send = element('button', { type: 'submit', className: 'send' }, 'Send');
const composer = element('form', { className: 'composer' }, input, send);

if (!config.allowed) {
  document.body.append(header, element('p', { className: 'refused' }, 'This chat is not available on this website.'));
  restart.remove();
} else {
  document.body.append(header, log, suggestions, composer);
  void begin();
}

async function begin(): Promise<void> {
  showGreeting();
  const response = await fetch(`${base}/conversations/${conversationId}`).catch(() => undefined);
  if (!response?.ok) return;
  const { messages } = (await response.json()) as { messages: Turn[] };
  if (messages.length > 0) suggestions.replaceChildren();
  for (const message of messages) bubble(message.role, message.content);
  replies = messages.filter((message) => message.role === 'assistant').length;
}

function showGreeting(): void {
  log.replaceChildren();
  for (const text of config.initialMessages) bubble('assistant', text);
  suggestions.replaceChildren(
    ...config.suggestedMessages.map((text) => {
      const button = element('button', { type: 'button', className: 'suggestion' }, text);
      button.addEventListener('click', () => void ask(text));
      return button;
    }),
  );
}

function bubble(role: Turn['role'], text: string): HTMLElement {
  const node = element('div', { className: `message ${role}` });
  renderText(node, text);
  log.append(node);
  log.scrollTop = log.scrollHeight;
  return node;
}

async function ask(text: string): Promise<void> {
  if (sending || !text.trim()) return;
  suggestions.replaceChildren();
  bubble('user', text);
  await answer(text);
}

/** Streams the reply to `text` into a new bubble; failures become a notice, with a retry when it may help. */
async function answer(text: string): Promise<void> {
  sending = true;
  send.disabled = true;
  const reply = bubble('assistant', '');
  reply.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(`${base}/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ conversationId, message: text, host: hostOrigin }),
    });
    if (!response.ok || !response.body) {
      const { message } = (await response.json().catch(() => ({}))) as { message?: string };
      if (response.status === 429 && message) return notice(reply, message);
      if (response.status === 403) return notice(reply, QUOTA_TEXT);
      return notice(reply, UNREACHABLE_TEXT, text);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let content = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      content += chunk.value;
      renderText(reply, content);
      log.scrollTop = log.scrollHeight;
    }
    replies += 1;
    if (replies === 1) offerLeadForm();
  } catch {
    notice(reply, UNREACHABLE_TEXT, text);
  } finally {
    reply.removeAttribute('aria-busy');
    sending = false;
    send.disabled = false;
  }
}

function notice(reply: HTMLElement, message: string, retryText?: string): void {
  reply.className = 'message notice';
  reply.setAttribute('role', 'alert');
  reply.replaceChildren(message);
  if (retryText === undefined) return;
  const retry = element('button', { type: 'button', className: 'retry' }, 'Retry');
  retry.addEventListener('click', () => {
    reply.remove();
    void answer(retryText);
  });
  reply.append(' ', retry);
}

function offerLeadForm(): void {
  const form = config.leadForm;
  if (!form || leadOffered) return;
  leadOffered = true;
  const types: Record<Field, string> = { name: 'text', email: 'email', phone: 'tel' };
  const autocomplete: Record<Field, string> = { name: 'name', email: 'email', phone: 'tel' };
  const inputs = form.fields.map(({ field, label }) => {
    const control = element('input', { name: field, type: types[field], autocomplete: autocomplete[field] as AutoFill });
    if (field === 'phone') control.pattern = '\\+?[0-9\\s().\\-]{6,20}';
    return element('label', { className: 'lead-field' }, element('span', {}, label), control);
  });
  const status = element('p', { className: 'lead-status' });
  status.setAttribute('role', 'status');
  const submit = element('button', { type: 'submit', className: 'send' }, 'Submit');
  const dismiss = element('button', { type: 'button', className: 'link-button' }, 'No thanks');
  const lead = element('form', { className: 'lead' }, element('h2', {}, form.title), ...inputs, status, element('div', { className: 'lead-actions' }, submit, dismiss));
  lead.setAttribute('aria-label', form.title);
  dismiss.addEventListener('click', () => lead.remove());
  lead.addEventListener('submit', (event) => {
    event.preventDefault();
    void submitLead(lead, status);
  });
  log.append(lead);
  log.scrollTop = log.scrollHeight;
}

async function submitLead(lead: HTMLFormElement, status: HTMLElement): Promise<void> {
  const values = Object.fromEntries(new FormData(lead)) as Partial<Record<Field, string>>;
  if (!values.email && !values.phone) {
    status.textContent = 'Please give an email address or a phone number.';
    return;
  }
  const response = await fetch(`${base}/leads`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ conversationId, ...values, host: hostOrigin }),
  }).catch(() => undefined);
  if (!response?.ok) {
    status.textContent = response?.status === 400 ? 'Please check the details.' : UNREACHABLE_TEXT;
    return;
  }
  lead.replaceChildren(element('p', { className: 'lead-status' }, 'Thank you! We will be in touch.'));
}

function postToHost(message: WidgetMessage): void {
  if (embedded && hostOrigin) window.parent.postMessage(message, hostOrigin);
}

restart.addEventListener('click', () => {
  conversationId = newConversationId();
  replies = 0;
  leadOffered = false;
  if (embedded) postToHost({ type: 'switchboard:conversation', conversationId });
  else saved.set(conversationKey, conversationId);
  showGreeting();
  input.focus();
});

if (!embedded) saved.set(conversationKey, conversationId);

composer.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value;
  if (sending || !text.trim()) return;
  input.value = '';
  void ask(text);
});

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') postToHost({ type: 'switchboard:close' });
});

window.addEventListener('message', (event) => {
  if (event.source !== window.parent || event.origin !== hostOrigin || !isWidgetMessage(event.data)) return;
  if (event.data.type === 'switchboard:focus') input.focus();
});

if (embedded) input.focus();
