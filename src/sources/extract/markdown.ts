import { marked } from 'marked';
import { htmlFragmentText } from './html.js';
import { firstHeading } from './structured-text.js';

// Markdown as structured text: marked (with GitHub's tables) renders it, and the HTML writer turns
// the result into lines, so a table's rows name their headers as in HTML and DOCX files. YAML
// front matter (static-site pages have it) is not text; its `title` names the file.

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/;
const TITLE_FIELD = /^title:[ \t]*(["']?)(.+?)\1[ \t]*$/m;

export function extractMarkdown(markdown: string): { title: string | undefined; text: string } {
  const normalized = markdown.replace(/\r\n?/g, '\n');
  const frontMatter = FRONT_MATTER.exec(normalized);
  const body = frontMatter ? normalized.slice(frontMatter[0].length) : normalized;
  const text = htmlFragmentText(marked.parse(body, { async: false, gfm: true }));
  return { title: TITLE_FIELD.exec(frontMatter?.[1] ?? '')?.[2] ?? firstHeading(text), text };
}
