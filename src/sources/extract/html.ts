import { isProbablyReaderable, Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { withoutContents } from './contents.js';
import { dropPageNavigation } from './page-navigation.js';
import { ITEM_MARKER, oneLine, structuredText, type DomNode } from './structured-text.js';

// An HTML page's main content as structured text. Readability (Firefox's reader view) picks the
// main content and drops navigation, headers, footers, sidebars and scripts; a page too short for
// its judgement, or that it finds no article in, is read whole, less those parts.

type Page = { title: string | undefined; text: string };
export type ParsedDocument = ReturnType<typeof parseHTML>['document'];

const CHROME = 'script, style, noscript, template, nav, header, footer, aside, form, [role="navigation"], [aria-hidden="true"]';
/** The parts around a page's content whose text Readability may take for the article. */
const SURROUNDINGS = 'nav, header, footer, aside, [role="navigation"]';
/** An inline style that hides its element: `display: none`, `visibility: hidden`. */
const HIDING_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))\s*(?:!important\s*)?(?:;|$)/i;

/** HTML page → its title and main content as structured text. Without a title, the page's address names it, as a browser's tab does. */
export function extractHtml(html: string, url?: string): Page {
  const { document } = webPage(html);
  const headings = Array.from(document.querySelectorAll('h1') as ArrayLike<DomNode>, (heading) => oneLine(heading.textContent ?? ''));
  const documentTitle = document.title;
  // Readability judges only pages with an article's worth of paragraphs; on a short page it may
  // take a long header line for the content.
  const readerable = isProbablyReaderable(document as never);
  // Read before Readability changes the document.
  const surroundings = readerable ? surroundingText(document) : '';
  const article = readerable ? new Readability(document as never, { serializer: (node) => node as DomNode }).parse() : null;
  let text = article?.content ? structuredText(article.content) : '';
  // On a page of links (a help centre's index) the article is too link-dense for Readability,
  // which may take the footer instead: then the page is read whole, less those parts.
  if (text && mostlyFrom(text, surroundings)) text = '';
  if (!text) text = wholePageText(article ? webPage(html).document : document);
  text = withoutContents(text);
  const title = pageTitle(article?.title ?? documentTitle, headings) ?? addressTitle(url);
  // The page's title heads its text unless the content already starts with it.
  if (title && !text.startsWith(`# ${title}\n`) && text !== `# ${title}`) text = text ? `# ${title}\n\n${text.replace(/^# /gm, '## ')}` : `# ${title}`;
  return { title, text };
}

/**
 * An HTML fragment (a converted DOCX or Markdown file: all of it content) as structured text,
 * `prepare` given its document to change first.
 */
export function htmlFragmentText(html: string, prepare?: (document: ParsedDocument) => void): string {
  const { document } = parsePage(html);
  prepare?.(document);
  return structuredText(document.body as unknown as DomNode);
}

/** A web page's document, less what a browser does not show and its navigation. */
function webPage(html: string) {
  const page = parsePage(html);
  dropPageNavigation(page.document);
  return page;
}

/** A page's document, less what a browser does not show. linkedom puts a fragment's elements beside an empty body: a fragment is wrapped in a page. */
function parsePage(html: string) {
  const page = parseHTML(/<(?:html|body)[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`);
  dropHidden(page.document);
  return page;
}

/**
 * Removes the elements a browser does not show, hidden by their `hidden` attribute or an inline
 * style (a page read whole kept their text), and shows those a visitor can open: a tab's panel, a
 * panel a button controls (`aria-controls`, an accordion's answer), what `hidden="until-found"`
 * folds away (find-in-page opens it) are content, which Readability would drop too. Text hidden
 * from screen readers only (`aria-hidden`) is a decoration and goes with the chrome.
 */
function dropHidden(document: ParsedDocument): void {
  type Element = { id: string; getAttribute(name: string): string | null; hasAttribute(name: string): boolean; removeAttribute(name: string): void; remove(): void };
  const elements = (selector: string) => Array.from(document.querySelectorAll(selector) as ArrayLike<Element>);
  const controlled = new Set(elements('[aria-controls]').flatMap((control) => (control.getAttribute('aria-controls') ?? '').split(/\s+/)));
  for (const element of elements('[hidden], [style]')) {
    const hidden = element.hasAttribute('hidden') || HIDING_STYLE.test(element.getAttribute('style') ?? '');
    const openable = element.getAttribute('hidden')?.toLowerCase() === 'until-found' || element.getAttribute('role') === 'tabpanel' || (element.id !== '' && controlled.has(element.id));
    if (hidden && openable) ['hidden', 'style'].forEach((name) => element.removeAttribute(name));
    else if (hidden) element.remove();
  }
}

/**
 * The page's name: its first-level heading that its <title> holds ("Meeting rooms" of
 * "Meeting rooms | Acme"), else the title as Readability reads it.
 */
function pageTitle(title: string, headings: string[]): string | undefined {
  const cleaned = oneLine(title);
  return headings.find((heading) => heading && cleaned.includes(heading)) ?? (cleaned || undefined);
}

/** The text of the page's surroundings; an article's own header (its title and lead) is not one. */
function surroundingText(document: ParsedDocument): string {
  const parts = Array.from(document.querySelectorAll(SURROUNDINGS) as ArrayLike<DomNode & { closest(selector: string): unknown }>);
  return parts
    .filter((part) => !part.closest('article, main'))
    .map((part) => oneLine(part.textContent ?? ''))
    .join('\n');
}

/** Whether most of a text's lines, headings aside, are lines of the page's navigation, header, footer or sidebar. */
function mostlyFrom(text: string, surroundings: string): boolean {
  if (!surroundings) return false;
  const lines = text.split('\n').filter((line) => line && !line.startsWith('#'));
  const length = (found: string[]) => found.reduce((sum, line) => sum + line.length, 0);
  // A list item's marker is structured text's, not the page's.
  const within = lines.filter((line) => surroundings.includes(oneLine(line.replace(ITEM_MARKER, ''))));
  return length(lines) > 0 && length(within) * 2 > length(lines);
}

function wholePageText(document: ParsedDocument): string {
  for (const element of Array.from(document.querySelectorAll(CHROME) as ArrayLike<{ remove(): void }>)) element.remove();
  return structuredText(document.body as unknown as DomNode);
}

function addressTitle(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const { host, pathname } = new URL(url);
  return `${host}${pathname === '/' ? '' : pathname}`;
}
