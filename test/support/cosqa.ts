/** CoSQA from ../shared/data/retrieval/cosqa: queries, the code corpus, and each query's labelled item. */
import * as fs from 'node:fs';
import { sharedPath } from './sharedData';

export interface CosqaQuery {
  readonly query: string;
  /** The labelled code snippet (index into `corpus`). */
  readonly answer: number;
}

export interface Cosqa {
  readonly corpus: readonly string[];
  readonly queries: readonly CosqaQuery[];
}

export function loadCosqa(): Cosqa {
  const map = JSON.parse(fs.readFileSync(sharedPath('retrieval', 'cosqa', 'code_idx_map.txt'), 'utf8')) as Record<string, number>;
  const corpus: string[] = [];
  for (const [code, index] of Object.entries(map)) corpus[index] = code;
  const raw = JSON.parse(fs.readFileSync(sharedPath('retrieval', 'cosqa', 'cosqa-retrieval-dev-500.json'), 'utf8')) as { doc: string; retrieval_idx: number }[];
  return { corpus, queries: raw.map((entry) => ({ query: entry.doc, answer: entry.retrieval_idx })) };
}

/** `size` candidates for a query: the labelled one among deterministic distractors, in a deterministic order. */
export function candidatesFor(cosqa: Cosqa, queryIndex: number, size = 20): { id: string; content: string }[] {
  const query = cosqa.queries[queryIndex]!;
  const picked = new Set<number>([query.answer]);
  let state = (queryIndex + 1) * 2654435761;
  while (picked.size < size) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    picked.add(state % cosqa.corpus.length);
  }
  const ids = [...picked].sort((a, b) => ((a * 7919 + queryIndex) % 1009) - ((b * 7919 + queryIndex) % 1009));
  return ids.map((index) => ({ id: `code-${index}`, content: cosqa.corpus[index]! }));
}
