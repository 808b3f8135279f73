// How far a website source's crawl has got, in words: the console's Sources page, `/chatbot
// sources` and the note `/chatbot learn` leaves once the site is read all say it the same way.

type Crawled = { status: string; pages?: { done: number; failed: number; total: number } };

/**
 * While a crawl runs, "3 of 9 pages"; once it ends, how many pages were read, failed and skipped
 * (its total counts the skipped ones too, so "6 of 9" would read as unfinished). '' for no crawl.
 */
export function crawlPagesText({ status, pages }: Crawled): string {
  if (!pages) return '';
  if (status === 'queued' || status === 'processing') return `${pages.done} of ${pages.total} pages`;
  const skipped = pages.total - pages.done - pages.failed;
  return [`${pages.done} ${pages.done === 1 ? 'page' : 'pages'} read`, pages.failed > 0 && `${pages.failed} failed`, skipped > 0 && `${skipped} skipped`]
    .filter(Boolean)
    .join(', ');
}
