import { describe, expect, it } from 'vitest';
import { csvField, csvFile, csvLine } from '../src/csv.js';

// The one CSV rule of every export (the console's, the chat commands', the digest's).

describe('csvField', () => {
  it('quotes as RFC 4180 says', () => {
    expect(csvField('Ada, "the Countess"')).toBe('"Ada, ""the Countess"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField('ada@example.com')).toBe('ada@example.com');
  });

  it('defuses what a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://evil.example")')).toBe('"\'=HYPERLINK(""http://evil.example"")"');
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-2+3+cmd|calc')).toBe("'-2+3+cmd|calc");
    expect(csvField('+SUM(1)')).toBe("'+SUM(1)");
    expect(csvField('\t=1+1')).toBe("'\t=1+1");
    expect(csvField('\r=1+1')).toBe('"\'\r=1+1"');
    // Digits alone after a minus are no phone number: it is a formula's arithmetic.
    expect(csvField('-1-2')).toBe("'-1-2");
    expect(csvField('+')).toBe("'+");
  });

  it('keeps a phone number readable as one', () => {
    for (const phone of ['+47 123 45 678', '+47 (0) 400-00-001', '+1.555.010.0199', '+4712345678']) expect(csvField(phone)).toBe(phone);
    expect(csvField('0047 123 45 678')).toBe('0047 123 45 678');
  });

  it('makes a file that spreadsheets open as UTF-8', () => {
    const file = csvFile(['name,email', csvLine(['Begoña Weiß 🥐', 'b@example.com'])]);
    // Excel takes a CSV without the byte-order mark for the system's code page ("BegoÃ±a").
    expect([...Buffer.from(file).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(file).toBe('\uFEFFname,email\r\nBegoña Weiß 🥐,b@example.com\r\n');
  });
});
