import type { TimeRange } from '../port.js';

// An open end becomes the extreme of a JavaScript Date, so one statement with plain range
// conditions serves every range and keeps using the (chatbot, created time) index.
const EARLIEST = -8.64e15;
const LATEST = 8.64e15;

/** Inclusive bounds in epoch milliseconds, as the created_at columns store them. */
export const timeBounds = (range: TimeRange) => ({
  from: range.from?.getTime() ?? EARLIEST,
  to: range.to?.getTime() ?? LATEST,
});
