import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Responder } from '../responder.js';
import { composeAnswer } from './compose.js';

const PIECES_BETWEEN_YIELDS = 8;

/**
 * The default responder: answers from the best-matching passages of the training text. It streams
 * its answer word by word, yielding to the event loop as it goes so that each piece is flushed to
 * the client and a disconnect is noticed at once.
 */
export function offlineResponder(): Responder {
  return {
    async complete(input) {
      return composeAnswer(input);
    },
    async *stream(input) {
      // Split before each word that follows white space: the pieces join back to the exact answer.
      const pieces = composeAnswer(input).split(/(?<=\s)(?=\S)/);
      for (const [index, piece] of pieces.entries()) {
        if (input.signal.aborted) return;
        yield piece;
        if (index % PIECES_BETWEEN_YIELDS === PIECES_BETWEEN_YIELDS - 1) await yieldToEventLoop();
      }
    },
  };
}
