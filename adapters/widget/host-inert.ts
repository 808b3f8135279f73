// While the chat window is a modal dialog covering the page, the host page's own content is made
// inert: Chromium's accessibility tree listed it beside the dialog, aria-modal notwithstanding, so
// a screen reader's reading and search went on into the page hidden beneath.

/**
 * Makes inert every element of the page's body but the widget's own, and those the page adds
 * meanwhile (a cookie banner, a live chat of its own); answers what gives the page back exactly as
 * it was. An element the page made inert itself is left alone, so it stays inert, and nothing is
 * hidden with aria-hidden, which the page may use for its own ends.
 */
export function makeHostInert(own: Element): () => void {
  const made: HTMLElement[] = [];
  const hide = (nodes: Iterable<Node>) => {
    for (const node of nodes) {
      if (node === own || !(node instanceof HTMLElement) || node.inert) continue;
      node.inert = true;
      made.push(node);
    }
  };
  hide(document.body.children);
  const added = new MutationObserver((records) => records.forEach((record) => hide(record.addedNodes)));
  added.observe(document.body, { childList: true });
  return () => {
    added.disconnect();
    for (const node of made) node.inert = false;
  };
}
