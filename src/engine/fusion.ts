// Reciprocal rank fusion (Cormack, Clarke & Büttcher, 2009): each ranking gives an item
// 1 / (k + rank), and items are ordered by the sum. It needs no comparable scores, which lexical
// (BM25) and vector (cosine) rankings do not have. k = 60 is the paper's constant.

const K = 60;

export type Fused = { key: string; score: number };

/** Fuses rankings of keys (best first) into one, best first; ties keep the order first seen. */
export function fuseRankings(rankings: string[][], limit: number): Fused[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((key, rank) => scores.set(key, (scores.get(key) ?? 0) + 1 / (K + rank + 1)));
  }
  return [...scores]
    .map(([key, score]) => ({ key, score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
