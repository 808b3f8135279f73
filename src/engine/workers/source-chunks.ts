import type { SourceChunk, SourceText } from '../../store/port.js';

/**
 * The chunks of each text, in order, each naming its text's source: with a loop, not flatMap,
 * which took 2 ms of the 15,000 chunks of a 10 MB source (on the event loop, on the main thread).
 */
export function chunksNamingSources(texts: SourceText[], chunked: string[][]): SourceChunk[] {
  const chunks: SourceChunk[] = [];
  texts.forEach(({ ref }, k) => {
    for (const text of chunked[k] as string[]) chunks.push({ text, source: ref });
  });
  return chunks;
}
