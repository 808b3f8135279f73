import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/http/iso-time.js';

describe('isoTime', () => {
  it('answers what toISOString answers, the first time and again, past the number it remembers', () => {
    const start = Date.UTC(2026, 10, 23, 12, 0, 0, 7);
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 12_000; i += 1) {
        const date = new Date(start + i * 86_399_937);
        expect(isoTime(date)).toBe(date.toISOString());
      }
    }
    expect(isoTime(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
  });

  it('refuses an invalid date as toISOString does', () => {
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
