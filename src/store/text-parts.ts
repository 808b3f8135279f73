// Long texts (and, on SQLite, a file's bytes) are kept in parts, each written in a short write of
// its own: one 20 MB value would hold the event loop while SQLite writes it, and MongoDB refuses a
// document over 16 MiB.

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

/** Where a value's parts are read from: the version now current (null for none, undefined for no owner) and a part of one. */
export type VersionParts<Part> = {
  current(): Promise<string | null | undefined>;
  /** Part `index` of `version`, at least its first `size` characters or bytes (all, if shorter); undefined past the last. */
  part(version: string, index: number, size: number): Promise<Part | undefined>;
};

/** The version current when the caller read the value's owner (its row or document), so it is not read again. */
export type KnownVersion = { version: string | null };

/**
 * The parts of the current version, read one by one until they hold `limit` characters or bytes;
 * null when there is no version, undefined when there is no owner. A version's parts never change
 * and are deleted only once it is displaced: if it is still current after the last part, no part
 * was missed; otherwise the value changed meanwhile, and the new one is read instead. The first
 * version is `known`'s, when given.
 */
export async function readCurrentParts<Part extends { length: number }>(
  { current, part }: VersionParts<Part>,
  limit: number,
  known?: KnownVersion,
): Promise<Part[] | null | undefined> {
  for (let version = known ? known.version : await current(); ; ) {
    if (version === undefined) return undefined;
    const read: Part[] = [];
    for (let index = 0, size = 0; version !== null && size < limit; index += 1) {
      const next = await part(version, index, limit - size);
      if (next === undefined) break;
      read.push(next);
      size += next.length;
    }
    const after = await current();
    if (after === version) return version === null ? null : read;
    version = after;
  }
}

/** The first `limit` characters of the current version's text; undefined when it has no owner. */
export async function readParts(parts: VersionParts<string>, limit: number, known?: KnownVersion): Promise<string | undefined> {
  const texts = await readCurrentParts(parts, limit, known);
  if (texts === undefined) return undefined;
  const text = (texts ?? []).join('');
  return text.length > limit ? text.slice(0, limit) : text;
}
