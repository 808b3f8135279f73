// Deterministic, varied training text for the benchmarks: sentences assembled from word lists by a
// seeded generator, grouped into paragraphs. The same seed and size give the same text.

/** mulberry32: a small, fast, seeded PRNG answering floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const SUBJECTS = [
  'The warehouse team', 'Our support desk', 'Every regional office', 'The billing department', 'A field engineer',
  'The night shift', 'Each store manager', 'The returns centre', 'Our logistics partner', 'The quality lab',
  'The mobile app', 'The customer portal', 'A senior technician', 'The loyalty programme', 'The accounts team',
];
const VERBS = [
  'inspects', 'ships', 'replaces', 'schedules', 'refunds', 'calibrates', 'packs', 'reviews', 'approves', 'archives',
  'repairs', 'updates', 'labels', 'collects', 'verifies', 'delivers', 'registers', 'restocks',
];
const OBJECTS = [
  'damaged parcels', 'warranty claims', 'ceiling lamps', 'smart plugs', 'gift cards', 'spare batteries',
  'installation kits', 'outdoor lanterns', 'invoices', 'loyalty points', 'dimmer switches', 'desk lamps',
  'replacement bulbs', 'cable reels', 'wall brackets', 'solar panels', 'garden lights', 'power adapters',
];
const PLACES = [
  'in Rotterdam', 'at the Lyon depot', 'in the Porto branch', 'near the Gdansk harbour', 'in Tallinn',
  'at the Vienna showroom', 'in the Bilbao warehouse', 'at the Aarhus hub', 'in Ljubljana', 'at head office',
];
const WHEN = [
  'every Monday morning', 'within two working days', 'before the end of each month', 'twice a week',
  'after every public holiday', 'during the spring sale', 'on the first Friday of the quarter', 'overnight',
  'within 48 hours of a request', 'once the audit is complete',
];
const CLAUSES = [
  'unless the customer asks otherwise', 'so that nothing waits longer than necessary',
  'because the regional rules require it', 'and records the result in the ledger',
  'while the main line keeps running', 'using the reference printed on the receipt',
  'provided the serial number can be read', 'after a supervisor signs the checklist',
];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

function sentence(random: () => number): string {
  const parts = [pick(random, SUBJECTS), pick(random, VERBS), pick(random, OBJECTS), pick(random, PLACES), pick(random, WHEN)];
  if (random() < 0.5) parts.push(pick(random, CLAUSES));
  // A reference number makes many distinct terms, as real manuals do.
  if (random() < 0.3) parts.push(`under reference ${String.fromCharCode(65 + Math.floor(random() * 26))}-${Math.floor(random() * 10_000)}`);
  return `${parts.join(' ')}.`;
}

/** About `chars` characters (never fewer) of paragraphs of 3–8 sentences. */
export function generateText(chars: number, seed = 20_260_101): string {
  const random = seededRandom(seed);
  const paragraphs: string[] = [];
  let length = 0;
  while (length < chars) {
    const count = 3 + Math.floor(random() * 6);
    const paragraph = Array.from({ length: count }, () => sentence(random)).join(' ');
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join('\n\n');
}
