import type { Chunk, Material, TrainedChunk } from './port.js';

// A training writes a chatbot's material and reads it back at once to build the index from it: 10
// MB of chunks read from the database and decoded, on the event loop, for what this process held a
// moment before. The material a replace made current is kept here until that first read (or the
// next replace), which takes it when its version is still the current one; any other read, and
// every other process, reads the store. One material at most, so it costs no memory for long.

export type WrittenMaterial = {
  /** The material `version` just made current. */
  keep(chatbotId: string, version: string, chunks: readonly TrainedChunk[]): void;
  /** The kept material, once, if it is the chatbot's and `current` is still its version. */
  take(chatbotId: string, current: string | undefined): Material | undefined;
};

export function writtenMaterial(): WrittenMaterial {
  let kept: { chatbotId: string; version: string; chunks: readonly TrainedChunk[] } | undefined;
  return {
    keep(chatbotId, version, chunks) {
      kept = { chatbotId, version, chunks };
    },
    take(chatbotId, current) {
      if (kept?.chatbotId !== chatbotId) return undefined;
      const { version, chunks } = kept;
      kept = undefined;
      return version === current ? { version, chunks: chunks.map(toChunk) } : undefined;
    },
  };
}

function toChunk(chunk: TrainedChunk, seq: number): Chunk {
  if (typeof chunk === 'string') return { seq, text: chunk };
  return chunk.source ? { seq, text: chunk.text, source: chunk.source } : { seq, text: chunk.text };
}
