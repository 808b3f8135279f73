import { escapeMarkdown } from 'discord.js';
import { clip } from '../clip.js';
import { FENCE_ROOM, fencedCut, insideCode } from '../code-fence.js';
import { emphasisDropper } from '../emphasis.js';

// Text rules of Discord messages: their length limit and how a long reply is cut into several.

/** Most characters one Discord message may hold. */
export const DISCORD_MESSAGE_LIMIT = 2_000;

/**
 * Cuts text into messages of at most `limit` characters, at a paragraph, line or word break
 * where there is one in the second half of the window, else hard (never inside a surrogate
 * pair); a code block cut in two is closed at the end of one message and reopened at the start
 * of the next. Cutting depends only on the text before each cut, so a growing reply keeps its
 * earlier pieces.
 */
export function splitMessage(text: string, limit = DISCORD_MESSAGE_LIMIT): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    let [piece, next] = cutAt(rest, limit);
    // Inside a code block the piece must close it too: cut again, leaving room for the fence.
    if (insideCode(piece)) [piece, next] = fencedCut(...cutAt(rest, limit - FENCE_ROOM));
    if (piece) pieces.push(piece);
    rest = next;
  }
  if (rest || pieces.length === 0) pieces.push(rest);
  return pieces;
}

/** The first message of at most `limit` characters, and the text after it. */
function cutAt(text: string, limit: number): [string, string] {
  const window = text.slice(0, limit + 1);
  for (const separator of ['\n\n', '\n', ' ']) {
    const at = window.lastIndexOf(separator, limit);
    if (at >= limit / 2) {
      const cut = beforeOpenLink(text, at, limit / 2);
      // The break itself goes; a code line's indentation after it stays.
      return [text.slice(0, cut).trimEnd(), text.slice(cut).replace(/^ ?\n*/, '')];
    }
  }
  const cut = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return [text.slice(0, cut), text.slice(cut)];
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** A masked link `[text](<url>)` that starts after a space and is still open at the end. */
const OPEN_LINK = /\s\[(?:\\.|[^\]\\])*(?:\]\([^)]*)?$/;

/**
 * A cut at `at` moved back to the space before a masked link it would split (a Sources line's),
 * which both messages would show as raw Markdown; kept where that is further back than `least`.
 */
function beforeOpenLink(text: string, at: number, least: number): number {
  const open = OPEN_LINK.exec(text.slice(0, at));
  return open && open.index >= least ? open.index : at;
}

/** Text cut to one message, marked as cut. */
export const truncateMessage = (text: string, limit = DISCORD_MESSAGE_LIMIT): string => clip(text, limit);

/** Discord's emphasis (**bold**, *italic*, _italic_, __underline__, ~~strike~~, ||spoiler||) without its markers. */
export const withoutEmphasis = emphasisDropper(['**', '__', '~~', '||', '*', '_']);

/** Mentions (`@everyone`, `@here`, `<@id>`, `<@&id>`, `<#id>`) as plain text: a zero-width space breaks each. */
const inertMentions = (text: string) => text.replace(/@(everyone|here)/g, '@\u200b$1').replace(/<(@[!&]?|#)(\d+)>/g, '<$1\u200b$2>');

/**
 * Text shown as it was typed: no markdown, headings, lists or masked links (bare links left whole:
 * an escape would become part of the address), and no mention anyone would be pinged or shown by.
 */
export const asTyped = (text: string) =>
  inertMentions(
    text
      .split(/(https?:\/\/\S+)/)
      .map((part, index) => (index % 2 === 1 ? part : escapeMarkup(part)))
      .join(''),
  );

/**
 * Discord's markup escaped. Backslashes, asterisks and underscores are escaped here, in one pass:
 * escapeMarkdown's italic rule looks back over the whole line at each character, which took 0.6 s
 * for a line of 10,000 characters and grows with the square (a visitor may send 32,000).
 */
const escapeMarkup = (part: string) =>
  escapeMarkdown(part.replace(/[\\*_]/g, '\\$&'), {
    escape: false,
    bold: false,
    italic: false,
    underline: false,
    heading: true,
    bulletedList: true,
    numberedList: true,
  }).replace(/[[\]]/g, '\\$&');
