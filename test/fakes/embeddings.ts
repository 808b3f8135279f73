import { createHash } from 'node:crypto';

// Deterministic embeddings in OpenAI's wire format (POST /v1/embeddings: `input` a string or an
// array of strings; answered with `object: "list"`, one `embedding` object per input in order,
// the model and the usage). A vector counts the input's concepts: words of one concept group
// (money back / refund / returns) share a dimension, so a paraphrase that shares no word with a
// passage still lands near it; any other word lands in a hashed dimension of its own.

const CONCEPTS = [
  ['refund', 'refunds', 'return', 'returns', 'returned', 'money', 'back', 'reimburse', 'reimbursed'],
  ['ship', 'ships', 'shipping', 'parcel', 'parcels', 'deliver', 'delivery', 'dispatch', 'package', 'arrive'],
  ['warranty', 'guarantee', 'defect', 'defects', 'broken', 'repair', 'repaired', 'faulty'],
  ['open', 'opening', 'hours', 'close', 'closes', 'closed', 'weekend', 'saturday', 'sunday'],
  ['gift', 'voucher', 'vouchers', 'card', 'cards', 'present'],
];
const WORD_DIMENSIONS = 32;
export const DIMENSIONS = CONCEPTS.length + WORD_DIMENSIONS;

export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = CONCEPTS.findIndex((group) => group.includes(word));
    if (concept >= 0) vector[concept] = (vector[concept] ?? 0) + 1;
    else {
      const bucket = CONCEPTS.length + (createHash('sha1').update(word).digest()[0] ?? 0) % WORD_DIMENSIONS;
      vector[bucket] = (vector[bucket] ?? 0) + 0.2;
    }
  }
  return vector;
}

export function embeddingsReply(body: Record<string, unknown>) {
  const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
  const tokens = inputs.reduce((sum, input) => sum + input.split(/\s+/).length, 0);
  return {
    object: 'list',
    data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(input) })),
    model: String(body.model),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
