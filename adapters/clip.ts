// Cutting text to a platform's limit without breaking a character apart.

/**
 * Text of at most `max` UTF-16 units (as Slack and Discord count), an ellipsis marking a cut; never
 * cut inside a surrogate pair, whose lone half platforms show as � or refuse.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
