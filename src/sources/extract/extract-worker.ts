import { answerJobs } from '../../worker-thread.js';
import { extractBytes } from './extract.js';
import { ExtractionError } from './errors.js';

// The thread that extracts files, so a large PDF never holds the server's event loop. A failure
// the owner should read comes back as its sentence; anything else fails the job as an error.

answerJobs<Uint8Array>(async (bytes) => {
  try {
    return { result: { extracted: await extractBytes(bytes) } };
  } catch (error) {
    if (error instanceof ExtractionError) return { result: { failure: error.message } };
    throw error;
  }
});
