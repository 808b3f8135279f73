import { fenced } from './structured-text.js';

// Plain text as the structured text the engine reads (src/engine/structure.ts reads Markdown's
// marks), though plain text is no Markdown. A manual written as text (lynx's dump of a book, a man
// page) indents its paragraphs four spaces or more: that is layout, and it went into the chunks as
// it stood ("…UTC)\n    is intended to provide…"). Its commands are indented too, and a root
// prompt's "#" ("# apt-get update") read as a Markdown heading. So a paragraph's lines lose their
// indentation, unless the paragraph reads as code: all its lines indented, and more of them a
// shell prompt (counting twice: a command's output may end a sentence, "Exiting.") or a brace
// than end a sentence; such a paragraph is fenced, keeping its own indentation. A paragraph that
// is only a separator (a line of dashes) says nothing and goes.

/** A line's indentation: spaces, tabs, and the no-break spaces lynx starts a preformatted block with. */
const INDENTATION = /^[ \t\u00a0]*/;
/** A paragraph of nothing but separator lines: "-----", "=====", "* * *". */
const SEPARATOR = /^(?:[-=_*~+#] ?){3,}$/;
/** A shell or interpreter prompt before a command, "$ ls", "# apt-get update", ">>> x" ("$ 20", a price, is none), or a script's "#!/bin/sh". */
const PROMPT = /^(?:[$#%] +(?!\d)\S|>>> |#!\/)/;
/** A line of code without a prompt: a brace at either end, a command going on in the next line ("\"); not ";", which ends list items. */
const CODE_LINE = /^[{}]|[{}\\]$/;
/** A line ending a sentence: a word of two letters or more and a full stop, a question or an exclamation mark. */
const ENDS_SENTENCE = /\p{L}{2}[.!?]["'’”)\]]*$/u;

/** Plain text as structured text: line ends and trailing spaces tidied, runs of blank lines made one, each paragraph as above. */
export function plainText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+$/gm, '')
    .split(/\n{2,}/)
    .filter((paragraph) => !paragraph.split('\n').every((line) => SEPARATOR.test(line.trim())))
    .map((paragraph) => {
      const lines = paragraph.split('\n');
      return isCode(lines) ? fenced(dedented(lines)) : lines.map((line) => line.replace(INDENTATION, '')).join('\n');
    })
    .join('\n\n')
    .trim();
}

function isCode(lines: string[]): boolean {
  const indented = lines.every((line) => indentation(line) > 0);
  const trimmed = lines.map((line) => line.replace(INDENTATION, ''));
  const count = (test: (line: string) => boolean) => trimmed.filter(test).length;
  const code = 2 * count((line) => PROMPT.test(line)) + count((line) => !PROMPT.test(line) && CODE_LINE.test(line));
  return indented && code > count((line) => ENDS_SENTENCE.test(line) && !PROMPT.test(line));
}

/** Code's lines, less the indentation they share (a no-break space counting as a space), keeping their own. */
function dedented(lines: string[]): string {
  const spaced = lines.map((line) => line.replace(INDENTATION, (indent) => indent.replace(/\u00a0/g, ' ')));
  const shared = Math.min(...spaced.map(indentation));
  return spaced.map((line) => line.slice(shared)).join('\n');
}

const indentation = (line: string): number => INDENTATION.exec(line)?.[0].length ?? 0;
