import { markdownText } from './markdown-notes.js';
import { firstHeading } from './structured-text.js';

// Markdown as structured text: marked (with GitHub's tables and footnotes) renders it, and the HTML
// writer turns the result into lines, so a table's rows name their headers as in HTML and DOCX files. Front
// matter (static-site pages have it: YAML between `---` lines, or Hugo's TOML between `+++`) is
// not text; its `title` names the file.

const FRONT_MATTER = /^(---|\+\+\+)[ \t]*\n([\s\S]*?)\n\1[ \t]*(?:\n|$)/;
/** `title: Room guide` in YAML, `title = "Room guide"` in TOML. */
const TITLE_FIELD = /^title[ \t]*[:=][ \t]*(["']?)(.+?)\1[ \t]*$/m;

export function extractMarkdown(markdown: string): { title: string | undefined; text: string } {
  const normalized = markdown.replace(/\r\n?/g, '\n');
  const frontMatter = FRONT_MATTER.exec(normalized);
  const body = frontMatter ? normalized.slice(frontMatter[0].length) : normalized;
  const text = markdownText(body);
  return { title: TITLE_FIELD.exec(frontMatter?.[2] ?? '')?.[2] ?? firstHeading(text), text };
}
