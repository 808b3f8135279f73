import { answerJobs } from '../../worker-thread.js';
import { extractBytes } from './extract.js';
import { ExtractionError } from './errors.js';
import { extractHtml } from './html.js';
import type { ExtractionJob } from './index.js';

// The thread that extracts files and web pages, so a large PDF never holds the server's event
// loop. A failure the owner should read comes back as its sentence; anything else fails the job
// as an error.

answerJobs<ExtractionJob>(async (job) => {
  if (job.task === 'page') return { result: extractHtml(job.html, job.url) };
  try {
    return { result: { extracted: await extractBytes(job.bytes) } };
  } catch (error) {
    if (error instanceof ExtractionError) return { result: { failure: error.message } };
    throw error;
  }
});
