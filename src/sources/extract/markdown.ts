import { marked } from 'marked';
import { htmlFragmentText } from './html.js';
import { firstHeading } from './structured-text.js';

// Markdown as structured text: marked (with GitHub's tables) renders it, and the HTML writer turns
// the result into lines, so a table's rows name their headers as in HTML and DOCX files.

export function extractMarkdown(markdown: string): { title: string | undefined; text: string } {
  const text = htmlFragmentText(marked.parse(markdown, { async: false, gfm: true }));
  return { title: firstHeading(text), text };
}
