/**
 * One CSV field per RFC 4180 (quoted where needed). A value a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, a tab or a carriage return first) gets a leading `'`, except plain phone
 * numbers such as `+47 123 45 678`. Lead exports from the chat commands and the digest share it.
 */
export function csvField(value: string | null): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text) && !/^\+?[\d ().-]+$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
