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

/**
 * `encode(text)`, the text clipped until the encoded form (JSON, markup entities) holds at most
 * `max` units: where a platform's limit counts what is sent, and encoding makes text longer.
 */
export function clipEncoded(text: string, max: number, encode: (text: string) => string): string {
  let encoded = encode(text);
  for (let room = text.length; encoded.length > max && room > 1; ) {
    room = Math.max(1, room - (encoded.length - max));
    encoded = encode(clip(text, room));
  }
  return encoded;
}
