// Long texts are kept in parts, each written in a short write of its own: one 20 MB value would
// hold the event loop while SQLite writes it, and MongoDB refuses a document over 16 MiB.

/** Characters of a part: a few milliseconds to write or read. */
export const TEXT_PART_CHARS = 1024 * 1024;

/** The text in parts of about TEXT_PART_CHARS, never cutting a surrogate pair in two; '' is one part. */
export function partsOf(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  do {
    let end = Math.min(start + TEXT_PART_CHARS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    parts.push(text.slice(start, end));
    start = end;
  } while (start < text.length);
  return parts;
}

/** Where a text's parts are read from: the version now current (null for no text, undefined for no owner) and a part of one. */
export type TextParts = {
  current(): Promise<string | null | undefined>;
  /** Part `index` of `version`, at least its first `chars` characters (all, if shorter); undefined past the last. */
  part(version: string, index: number, chars: number): Promise<string | undefined>;
};

/**
 * The first `limit` characters of the current version's text, read part by part; undefined when
 * it has no owner. A version's parts never change and are deleted only once it is displaced: if it
 * is still current after the last part, no part was missed; otherwise the text changed meanwhile,
 * and the new one is read instead.
 */
export async function readParts({ current, part }: TextParts, limit: number): Promise<string | undefined> {
  for (let version = await current(); ; ) {
    if (version === undefined) return undefined;
    let text = '';
    for (let index = 0; version !== null && text.length < limit; index += 1) {
      const read = await part(version, index, limit - text.length);
      if (read === undefined) break;
      text += read;
    }
    const after = await current();
    if (after === version) return text.length > limit ? text.slice(0, limit) : text;
    version = after;
  }
}
