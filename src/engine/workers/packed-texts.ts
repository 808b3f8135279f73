// Many texts as one string and their lengths, to cross between threads: the thread receiving a
// message decodes it at once, on its event loop, and fifteen thousand chunk objects (a 10 MB
// source) take tens of milliseconds to decode where one string is a copy.

export type PackedTexts = { text: string; lengths: Int32Array };

export function packTexts(texts: string[]): PackedTexts {
  return { text: texts.join(''), lengths: Int32Array.from(texts, (text) => text.length) };
}

export function unpackTexts({ text, lengths }: PackedTexts): string[] {
  const texts: string[] = [];
  let offset = 0;
  for (const length of lengths) {
    texts.push(text.slice(offset, offset + length));
    offset += length;
  }
  return texts;
}
