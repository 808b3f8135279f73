/** A phone number as people write one: `+` and a digit, then digits, spaces, parentheses, dots and hyphens. */
const PHONE_NUMBER = /^\+\d[\d ().-]*$/;

/**
 * One CSV field per RFC 4180 (quoted where needed), the one rule of every CSV the hub and its
 * clients write (lead exports of the console and the chat commands, the digest's). A value a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first) gets a
 * leading `'`, except a plain phone number such as `+47 123 45 678`, which holds no formula a
 * spreadsheet could run and is read as the number it is.
 */
export function csvField(value: string | null): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text) && !PHONE_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
