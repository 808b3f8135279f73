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

/**
 * Comes first in every CSV file: UTF-8's byte-order mark, without which Excel reads a CSV in the
 * system's code page, so "Müller" or "Begoña" open as "MÃ¼ller" or "BegoÃ±a".
 */
export const CSV_BOM = '\uFEFF';

/** A row of values as one CSV line (csvField each). */
export function csvLine(values: readonly (string | null)[]): string {
  return values.map(csvField).join(',');
}

/** CSV lines (the header first) as a file: the byte-order mark, and each line ended by CRLF. */
export function csvFile(lines: readonly string[]): string {
  return `${CSV_BOM}${lines.join('\r\n')}\r\n`;
}
