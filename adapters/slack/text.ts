import { FENCE_ROOM, fencedCut } from '../code-fence.js';
import { emphasisDropper } from '../emphasis.js';

// Slack's text conventions: what a message may hold, how its markup reads as plain text, and
// how a long reply is cut into messages Slack accepts.

/**
 * The most characters one reply message carries. Slack truncates a message's text after 40,000
 * characters and advises keeping it under 4,000; longer replies continue in further messages.
 */
export const MESSAGE_LIMIT = 3_500;

/** Slack reserves `&`, `<` and `>` for its markup; text meant literally escapes them. */
export function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function unescapeText(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/** Slack's emphasis (*bold*, _italic_, ~strike~) without its markers. */
const withoutEmphasis = emphasisDropper(['*', '_', '~']);

/**
 * A message's text as a person reads it: the bot's own mention removed, other mentions, channel
 * references and links in readable form, emphasis markers dropped (a handoff reply reaches a
 * widget that shows text as typed), entities decoded.
 */
export function plainText(text: string, botUserId: string | undefined): string {
  const readable = text.replace(/<([^<>]*)>/g, (_whole, inner: string) => {
    const [target = '', label] = inner.split('|', 2);
    const name = (fallback: string) => (label ?? fallback).replace(/^[@#]/, '');
    if (target.startsWith('@')) return target.slice(1) === botUserId ? '' : `@${name(target.slice(1))}`;
    if (target.startsWith('#')) return `#${name(target.slice(1))}`;
    if (target.startsWith('!')) return `@${name(target.slice(1).replace(/^subteam\^/, ''))}`;
    const address = target.replace(/^mailto:/, '');
    return label && label !== address ? `${label} (${address})` : address;
  });
  return unescapeText(withoutEmphasis(readable))
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/**
 * Cuts text (already escaped) into messages of at most `limit` characters: at a paragraph break,
 * else a line break, else a space, in the second half of the allowance; a code block cut in two
 * is closed at the end of one message and reopened at the start of the next.
 */
export function splitMessage(text: string, limit = MESSAGE_LIMIT): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const [end, next] = cutPoint(rest, limit - FENCE_ROOM);
    const [head, after] = fencedCut(rest.slice(0, end).trimEnd(), rest.slice(next).replace(/^\n+/, ''));
    rest = after;
    parts.push(head);
  }
  parts.push(rest);
  return parts;
}

/** Where the first message ends and the next begins. */
function cutPoint(text: string, allowance: number): [number, number] {
  const window = text.slice(0, allowance + 1);
  const least = Math.floor(allowance / 2);
  for (const separator of ['\n\n', '\n', ' ']) {
    const at = window.lastIndexOf(separator, allowance - separator.length);
    if (at >= least) return [at, at + separator.length];
  }
  // No break anywhere near: a hard cut, but never inside an entity or a surrogate pair.
  let end = allowance;
  const entity = /&[a-z]{0,3}$/.exec(text.slice(Math.max(0, end - 4), end));
  if (entity) end -= entity[0].length;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return [end, end];
}
