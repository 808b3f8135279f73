
// Reply text into DOM nodes: text stays text (never parsed as HTML), and http(s) URLs become
// links that open in a new tab without access to this window.

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/g;
const TRAILING = /[.,;:!?)\]]+$/;

export function renderText(element: HTMLElement, text: string): void {
  const nodes: Node[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING, '');
    const start = match.index ?? 0;
    nodes.push(document.createTextNode(text.slice(last, start)), link(url));
    last = start + url.length;
  }
  nodes.push(document.createTextNode(text.slice(last)));
  element.replaceChildren(...nodes);
}

function link(url: string): Node {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return document.createTextNode(url);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return document.createTextNode(url);
  const anchor = document.createElement('a');
  anchor.href = parsed.href;
  anchor.target = '_blank';
  anchor.rel = 'noopener noreferrer';
  anchor.textContent = url;
  return anchor;
}
