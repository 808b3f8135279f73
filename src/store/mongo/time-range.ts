import type { TimeRange } from '../port.js';

/** The createdAt condition of a range: bounds only where given, so an open range scans no extra keys. */
export function createdWithin(range: TimeRange): { createdAt?: { $gte?: Date; $lte?: Date } } {
  if (!range.from && !range.to) return {};
  return {
    createdAt: {
      ...(range.from && { $gte: range.from }),
      ...(range.to && { $lte: range.to }),
    },
  };
}
