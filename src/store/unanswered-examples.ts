import type { UnansweredExample } from './port.js';

/**
 * A group's examples, kept in the order they were recorded (oldest first), newest asked first:
 * an ask is recorded once its reply has ended, so of two asked moments apart the second may be
 * recorded first. Of examples asked at the same time, the one recorded last comes first.
 */
export const newestAskedFirst = (recorded: readonly UnansweredExample[]): UnansweredExample[] =>
  [...recorded].reverse().sort((one, other) => other.askedAt.getTime() - one.askedAt.getTime());
