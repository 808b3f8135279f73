import { makeHostInert } from './host-inert.js';
import { readableOn } from './readable.js';
import { isConversationId, isWidgetMessage, newConversationId, storage, type WidgetMessage } from './protocol.js';
import { wordsFor } from './words.js';

// The embed script: `<script src="{hub}/widget/embed.js" data-chatbot-id="ID" defer>`. It adds
// one element to the host page, whose shadow root holds the button and the chat window's iframe,
// so no CSS crosses in either direction, and it defines no global.

type EmbedConfig = {
  allowed: boolean;
  name: string;
  buttonColor: string;
  alignChatButton: 'left' | 'right';
  autoOpenChatWindowAfter: number;
  iconUrl: string | null;
};

const STYLES = `
:host { all: initial; }
.launcher { position: fixed; bottom: 20px; width: 56px; height: 56px; border: 0; border-radius: 50%;
  padding: 0; cursor: pointer; background: var(--button-color); color: var(--button-text); z-index: 2147483646;
  box-shadow: 0 4px 14px rgba(0,0,0,.25); display: grid; place-items: center; }
.launcher:focus-visible { outline: 3px solid #111; outline-offset: 3px; }
.launcher img { width: 32px; height: 32px; border-radius: 50%; object-fit: cover; }
.launcher svg { width: 28px; height: 28px; }
.panel { position: fixed; bottom: 88px; width: 380px; height: min(640px, calc(100vh - 110px));
  border-radius: 14px; overflow: hidden; box-shadow: 0 8px 30px rgba(0,0,0,.3); z-index: 2147483647;
  background: #fff; }
.panel[hidden] { display: none; }
.left { left: 20px; } .right { right: 20px; }
iframe { width: 100%; height: 100%; border: 0; display: block; }
.refused { font: 15px/1.4 system-ui, sans-serif; color: #222; padding: 24px 56px 24px 24px; margin: 0; }
.dismiss { position: absolute; top: 12px; right: 12px; width: 36px; height: 36px; border: 1px solid #ccc;
  border-radius: 8px; background: #fff; color: #222; font: 20px/1 system-ui, sans-serif; cursor: pointer; }
.dismiss:focus-visible { outline: 3px solid #111; outline-offset: 2px; }
/* Where the open window covers the whole page (NARROW below) it is a modal dialog: Tab goes round
   its controls (through these two edges), and the launcher, beneath it, is inert (showModality). */
.edge { position: fixed; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
@media (max-width: 480px) {
  .panel { inset: 0; width: 100vw; height: 100vh; height: 100dvh; border-radius: 0; }
}
@media (min-width: 481px) { .edge { display: none; } }
`;

/** Where the open panel covers the whole page, as the styles' media queries say. */
const NARROW = '(max-width: 480px)';

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z"/></svg>';

const script = document.currentScript;
if (script instanceof HTMLScriptElement && script.dataset.chatbotId) {
  void mount(new URL(script.src).origin, script.dataset.chatbotId);
}

async function mount(hub: string, chatbotId: string): Promise<void> {
  const base = `${hub}/widget/chatbots/${encodeURIComponent(chatbotId)}`;
  const response = await fetch(`${base}/config?host=${encodeURIComponent(location.origin)}`).catch(() => undefined);
  // A private or unknown chatbot, or an unreachable hub: the page stays as it was, and its
  // developer's console says why (a new chatbot is private, and its pasted snippet shows nothing).
  if (!response?.ok) {
    console.warn(
      response?.status === 404
        ? `Switchboard: chatbot ${chatbotId} is not public (or does not exist), so no chat button is shown. Set its visibility to public to go live.`
        : `Switchboard: the chat button could not load its settings from ${hub}.`,
    );
    return;
  }
  const config = (await response.json()) as EmbedConfig;

  const saved = storage();
  const conversationKey = `switchboard:${chatbotId}:conversation`;
  const openedKey = `switchboard:${chatbotId}:opened`;
  const stored = saved.get(conversationKey);
  // A conversation made up here has no history for the window to fetch (which would be a 404).
  const fresh = !isConversationId(stored);
  const conversationId = fresh ? newConversationId() : stored;
  saved.set(conversationKey, conversationId);

  const element = document.createElement('switchboard-chat');
  const root = element.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(STYLES);
  root.adoptedStyleSheets = [sheet];

  // The page's language first: the site's, which its owner chose.
  const { lang, words } = wordsFor([document.documentElement.lang, ...navigator.languages]);
  const side = config.alignChatButton === 'left' ? 'left' : 'right';
  const launcher = document.createElement('button');
  launcher.type = 'button';
  launcher.className = `launcher ${side}`;
  launcher.setAttribute('aria-label', words.openChatWith(config.name));
  launcher.setAttribute('aria-expanded', 'false');
  launcher.style.setProperty('--button-color', config.buttonColor);
  launcher.style.setProperty('--button-text', readableOn(config.buttonColor));
  if (config.iconUrl) {
    const icon = document.createElement('img');
    icon.src = new URL(config.iconUrl, hub).href;
    icon.alt = '';
    launcher.append(icon);
  } else {
    launcher.innerHTML = CHAT_ICON;
  }

  const panel = document.createElement('div');
  panel.className = `panel ${side}`;
  panel.hidden = true;
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', words.chatWith(config.name));
  const narrow = window.matchMedia(NARROW);
  // Shift+Tab from the window's first control reaches the edge before it, Tab from its last the edge after.
  const edge = (to: 'first' | 'last') => {
    const sentinel = document.createElement('span');
    sentinel.className = 'edge';
    sentinel.tabIndex = 0;
    sentinel.addEventListener('focus', () => {
      // The refusal has one control, its close button.
      if (!frame) return panel.querySelector<HTMLElement>('.dismiss')?.focus();
      frame.focus();
      post({ type: 'switchboard:focus-edge', edge: to });
    });
    return sentinel;
  };
  // Inside the panel: a modal dialog's screen reader sees nothing outside it.
  const [before, after] = [edge('last'), edge('first')];
  panel.append(before, after);
  root.append(launcher, panel);
  document.body.append(element);

  let frame: HTMLIFrameElement | undefined;
  const post = (message: WidgetMessage) => frame?.contentWindow?.postMessage(message, hub);

  /** While modal, what gives the host page back its own content. */
  let restoreHost: (() => void) | undefined;
  /**
   * Modal while open where it covers the page; beside the page, the page stays to be used. While
   * modal, what lies outside the window, the launcher beneath it and the host page's own content,
   * is inert, and given back as it was once the window closes or sits beside the page again.
   */
  function showModality(): void {
    const modal = !panel.hidden && narrow.matches;
    if (modal) panel.setAttribute('aria-modal', 'true');
    else panel.removeAttribute('aria-modal');
    launcher.inert = modal;
    if (modal) restoreHost ??= makeHostInert(element);
    else {
      restoreHost?.();
      restoreHost = undefined;
    }
  }
  narrow.addEventListener('change', showModality);

  function open(): void {
    saved.set(openedKey, '1');
    panel.hidden = false;
    showModality();
    launcher.setAttribute('aria-expanded', 'true');
    launcher.setAttribute('aria-label', words.closeChatWith(config.name));
    if (!config.allowed) {
      if (!panel.querySelector('.refused')) after.before(...refusal());
      panel.querySelector<HTMLElement>('.refused')?.focus();
      return;
    }
    if (frame) {
      frame.focus();
      post({ type: 'switchboard:focus' });
      return;
    }
    // A new window focuses its own input once loaded; until then the frame holds an about:blank
    // of this page's origin, which a message for the hub would not reach (the browser warns).
    frame = document.createElement('iframe');
    frame.title = words.chatWith(config.name);
    frame.src = `${base}?host=${encodeURIComponent(location.origin)}&lang=${lang}#conversation=${conversationId}${fresh ? '&new' : ''}`;
    after.before(frame);
    frame.focus();
  }

  /**
   * The refusal, with a button to close it: on a phone the panel covers the page and the
   * launcher, and a visitor has no Escape key.
   */
  function refusal(): HTMLElement[] {
    const text = document.createElement('p');
    text.className = 'refused';
    text.tabIndex = -1;
    text.textContent = words.notAvailable;
    const dismiss = document.createElement('button');
    dismiss.type = 'button';
    dismiss.className = 'dismiss';
    dismiss.textContent = '×';
    dismiss.setAttribute('aria-label', words.closeChat);
    dismiss.addEventListener('click', close);
    return [text, dismiss];
  }

  function close(): void {
    panel.hidden = true;
    showModality();
    launcher.setAttribute('aria-expanded', 'false');
    launcher.setAttribute('aria-label', words.openChatWith(config.name));
    launcher.focus();
  }

  launcher.addEventListener('click', () => (panel.hidden ? open() : close()));
  root.addEventListener('keydown', (event) => {
    if ((event as KeyboardEvent).key === 'Escape' && !panel.hidden) close();
  });
  window.addEventListener('message', (event) => {
    if (event.origin !== hub || !frame || event.source !== frame.contentWindow || !isWidgetMessage(event.data)) return;
    if (event.data.type === 'switchboard:close') close();
    if (event.data.type === 'switchboard:conversation') saved.set(conversationKey, event.data.conversationId);
  });

  // A refusal is shown to a visitor who asks, never put in front of one.
  if (config.allowed && config.autoOpenChatWindowAfter > 0 && !saved.get(openedKey)) {
    setTimeout(() => panel.hidden && open(), config.autoOpenChatWindowAfter * 1000);
  }
}
