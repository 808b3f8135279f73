import type { Digest } from '../../src/store/port.js';
import type { DigestMessage } from './compose.js';

/** What a post took: the tries of the message itself, and a note if a secondary part failed. */
export type PostOutcome = { attempts: number; warning?: string };

/**
 * Posts one digest message to its subscription's channel, retrying as its policy says.
 * @throws RetriesExhausted when the message could not be posted.
 */
export type Poster = (digest: Digest, message: DigestMessage) => Promise<PostOutcome>;
