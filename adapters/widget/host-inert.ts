// While the chat window is a modal dialog covering the page, the host page's own content is made
// inert: Chromium's accessibility tree listed it beside the dialog, aria-modal notwithstanding, so
// a screen reader's reading and search went on into the page hidden beneath.

/**
 * Makes inert every element of the page's body but the widget's own; answers what gives the page
 * back exactly as it was. An element the page made inert itself is left alone, so it stays inert,
 * and nothing is hidden with aria-hidden, which the page may use for its own ends.
 */
export function makeHostInert(own: Element): () => void {
  const made = [...document.body.children].filter((child): child is HTMLElement => child !== own && child instanceof HTMLElement && !child.inert);
  for (const child of made) child.inert = true;
  return () => {
    for (const child of made) child.inert = false;
  };
}
