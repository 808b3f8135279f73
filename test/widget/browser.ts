import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';

// Debian's Chromium driven by playwright-core (no browser download), with two made-up host
// names resolving to 127.0.0.1, so a host page and the hub are really different sites.

export const ALLOWED_HOST = 'allowed.test';
export const OTHER_HOST = 'other.test';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // The browser's language, where a test sets none: the widget speaks it when the page has no lang.
      '--lang=en-US',
      `--host-resolver-rules=MAP ${ALLOWED_HOST} 127.0.0.1, MAP ${OTHER_HOST} 127.0.0.1`,
    ],
  });
}

/** The names of the page's buttons, as Chromium's accessibility tree gives them to a screen reader. */
export async function buttonNames(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  return nodes.filter((node) => !node.ignored && node.role?.value === 'button').map((node) => String(node.name?.value));
}

export type HostSite = {
  /** A host page on `host` embedding chatbot `chatbotId` with the snippet from the README, in language `lang` when given. */
  pageUrl(host: string, chatbotId: string, lang?: string): string;
  /** A host page that frames the chat window directly, without the embed script. */
  framingUrl(host: string, chatbotId: string): string;
  close(): Promise<void>;
};

/**
 * The customer's website: pages with hostile global CSS, so a leak in either direction shows,
 * and a button of the page's own to compare against.
 */
export async function startHostSite(hubOrigin: string): Promise<HostSite> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    const chatbotId = url.searchParams.get('bot') ?? '';
    const lang = url.searchParams.get('lang');
    const embed = url.pathname === '/frame'
      ? `<iframe id="direct" src="${hubOrigin}/widget/chatbots/${chatbotId}"></iframe>`
      : `<script src="${hubOrigin}/widget/embed.js" data-chatbot-id="${chatbotId}" defer></script>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html${lang ? ` lang="${lang}"` : ''}><head><title>Host</title>
<style>* { color: rgb(255, 0, 0); font-family: serif; } button { border-radius: 0; }</style></head>
<body><h1>Host page</h1><button id="own">Own button</button>${embed}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    pageUrl: (host, chatbotId, lang) => `http://${host}:${port}/?bot=${encodeURIComponent(chatbotId)}${lang ? `&lang=${encodeURIComponent(lang)}` : ''}`,
    framingUrl: (host, chatbotId) => `http://${host}:${port}/frame?bot=${encodeURIComponent(chatbotId)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
