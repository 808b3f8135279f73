// Reciprocal rank fusion (Cormack, Clarke & Büttcher, 2009): each ranking gives an item
// 1 / (k + rank), and items are ordered by the sum. It needs no comparable scores, which lexical
// (BM25) and vector (cosine) rankings do not have. k = 60 is the paper's constant.

const K = 60;

export type Fused = { seq: number; score: number };

/** Fuses rankings of chunk positions (best first) into one, best first; ties keep source order. */
export function fuseRankings(rankings: number[][], limit: number): Fused[] {
  const scores = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((seq, rank) => scores.set(seq, (scores.get(seq) ?? 0) + 1 / (K + rank + 1)));
  }
  return [...scores]
    .map(([seq, score]) => ({ seq, score }))
    .sort((a, b) => b.score - a.score || a.seq - b.seq)
    .slice(0, limit);
}
