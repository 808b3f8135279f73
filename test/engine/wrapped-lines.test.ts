import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/engine/chunking.js';
import { unwrappedLines } from '../../src/engine/wrapped-lines.js';
import { engineAnswerer } from './eval/score.js';

// Text written to a fixed width, as a plain-text file or an e-mail is: its wrapped lines are read
// as the sentences they break, while lines set apart by hand stay lines.

const WRAPPED_SHOP = [
  'Opening hours',
  'The shop is open from nine in the morning until half past five in\nthe afternoon on weekdays, and from ten until four on Saturdays. We\nare closed on Sundays and on public holidays.',
  'Returns',
  'You can return any item within thirty days of purchase for a full\nrefund, as long as you bring the receipt. Sale items can only be\nexchanged, not refunded.',
].join('\n\n');

describe('hard-wrapped text', () => {
  const ask = engineAnswerer();

  it('quotes the sentences that wrapped lines break, whole', async () => {
    expect(await ask(WRAPPED_SHOP, { question: 'Can I get a refund on sale items?' })).toContain('Sale items can only be exchanged, not refunded.');
    expect(await ask(WRAPPED_SHOP, { question: 'Are you open on public holidays?' })).toContain('We are closed on Sundays and on public holidays.');
  });

  it('joins a paragraph wrapped to its width, a wrapped list item and a numbered entry going on', () => {
    expect(chunkText(WRAPPED_SHOP)).toEqual([
      'Opening hours\n\nThe shop is open from nine in the morning until half past five in the afternoon on weekdays, and from ten until four on Saturdays. We are closed on Sundays and on public holidays.\n\nReturns\n\nYou can return any item within thirty days of purchase for a full refund, as long as you bring the receipt. Sale items can only be exchanged, not refunded.',
    ]);
    expect(unwrappedLines('- Bring the item in its original box with every part and the\nreceipt, or the card you paid with.\n- Refunds take five days.')).toBe(
      '- Bring the item in its original box with every part and the receipt, or the card you paid with.\n- Refunds take five days.',
    );
    expect(unwrappedLines('1.1.10. Additional package suggestions for the\nnewbie\n1.1.11. An extra user account')).toBe(
      '1.1.10. Additional package suggestions for the newbie\n1.1.11. An extra user account',
    );
  });

  it('keeps lines set apart by hand', () => {
    const kept = [
      // Narrow: hours and an address.
      'Monday to Friday 9am to 5pm\nSaturday 10am to 4pm\nclosed on Sundays',
      'Harbor Bakery\n12 Quay Street\nBergen 5003',
      // Wide, but every line begins a thought with a capital.
      'Parking is available in the car park behind the village hall\nBicycle racks are by the front door of the main building',
      // The next word would have fitted: the writer broke the line.
      'Please read these notes before your first visit:\nbring your own towel and a bottle of water, and arrive ten minutes early',
      // Lists, FAQ markers, numbered entries, tables and underlines go on no line.
      'Our three membership plans are listed below with their prices\n- monthly at 30 EUR\n- yearly at 300 EUR',
      'Q: Can I bring my own food and drink into the cinema screens\nA: no, except water in a sealed bottle bought in the foyer',
      '1.2.4. Control of permissions for newly created files: umask\n1.2.5. Permissions for groups of users (group)',
      'Room: Kestrel; Floor: 3; Code: KES-4105; Seats: twelve people\nRoom: Osprey; Floor: 2; Code: OSP-2201; Seats: eight people',
      '| Plan | Price per month for one person |\n| monthly | 30 EUR |',
      'Frequently asked questions about membership and our studios\n=============================================================',
    ];
    for (const paragraph of kept) expect(unwrappedLines(paragraph)).toBe(paragraph);
  });
});
