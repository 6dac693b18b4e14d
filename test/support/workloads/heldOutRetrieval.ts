/**
 * Held-out: a retriever's top-20 knowledge-base chunks, each with its path and similarity, pasted
 * under "…; cite the chunk", as text and as the retriever's JSON. Cranfield documents are the
 * chunks; the judged answers (codes 1–2) and the unjudged documents sharing most words with the
 * query fill the 20, ranked by a cosine similarity over their words. Two of the queries are those
 * whose answers share the fewest words with the query (the chunks use other words than the
 * question). Facts: the answers' chunk ids and titles (the id is what the answer must cite).
 */
import type { Workload } from './types';
import { cranfieldDocuments, cranfieldQueries, judgements, terms, type CranfieldDocument } from './rag';
import { MODEL } from './shape';

function counts(words: readonly string[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const word of words) found.set(word, (found.get(word) ?? 0) + 1);
  return found;
}

function cosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [word, count] of a) {
    normA += count * count;
    dot += count * (b.get(word) ?? 0);
  }
  for (const count of b.values()) normB += count * count;
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

interface Chunk { readonly document: CranfieldDocument; readonly similarity: number; readonly id: string; readonly path: string }

function topChunks(queryNumber: number, documents: readonly CranfieldDocument[]): { chunks: Chunk[]; answers: Chunk[] } {
  const judged = judgements().get(queryNumber)!;
  const query = counts(terms(cranfieldQueries()[queryNumber - 1]!));
  const similarity = (document: CranfieldDocument): number => cosine(query, counts(terms(`${document.title} ${document.text}`)));
  const toChunk = (document: CranfieldDocument): Chunk => ({ document, similarity: similarity(document), id: `kb-${String(document.id).padStart(4, '0')}#0`, path: `kb/aerodynamics/cranfield-${String(document.id).padStart(4, '0')}.md` });
  const answers = documents.filter((document) => (judged.get(document.id) ?? 99) <= 2).map(toChunk);
  const others = documents.filter((document) => !judged.has(document.id)).map(toChunk).sort((a, b) => b.similarity - a.similarity || a.document.id - b.document.id).slice(0, 20 - answers.length);
  const chunks = [...answers, ...others].sort((a, b) => b.similarity - a.similarity || a.document.id - b.document.id);
  return { chunks, answers };
}

/** Answer overlap: the share of the answers' distinct words that the query also has. */
function answerOverlap(queryNumber: number, documents: readonly CranfieldDocument[]): number {
  const judged = judgements().get(queryNumber)!;
  const query = new Set(terms(cranfieldQueries()[queryNumber - 1]!));
  const answers = documents.filter((document) => (judged.get(document.id) ?? 99) <= 2);
  const shares = answers.map((document) => {
    const words = new Set(terms(`${document.title} ${document.text}`));
    return [...query].filter((word) => words.has(word)).length / Math.max(1, query.size);
  });
  return shares.reduce((sum, share) => sum + share, 0) / Math.max(1, shares.length);
}

/** Queries with two or three judged answers, after the ones the own set uses (its first three two-answer queries). */
function candidateQueries(): number[] {
  const found: number[] = [];
  for (const [query, judged] of [...judgements()].sort((a, b) => a[0] - b[0])) {
    const answers = [...judged.values()].filter((code) => code <= 2).length;
    if (answers >= 2 && answers <= 3 && query > 14) found.push(query);
  }
  return found;
}

function asText(chunks: readonly Chunk[]): string {
  return chunks.map((chunk, index) => `[${index + 1}] ${chunk.id} · ${chunk.path} · similarity ${chunk.similarity.toFixed(3)}\n${chunk.document.title}\n${chunk.document.text}`).join('\n\n');
}

function asJson(chunks: readonly Chunk[]): string {
  return JSON.stringify({ results: chunks.map((chunk) => ({ id: chunk.id, path: chunk.path, score: Number(chunk.similarity.toFixed(3)), title: chunk.document.title, text: chunk.document.text })) }, null, 2);
}

function chunkWorkload(queryNumber: number, documents: readonly CranfieldDocument[], variant: 'text' | 'json', kind: string): Workload {
  const { chunks, answers } = topChunks(queryNumber, documents);
  const question = `${cranfieldQueries()[queryNumber - 1]!} Cite the chunk you use by its id.`;
  const paste = variant === 'text' ? `Top ${chunks.length} chunks from the knowledge base:\n\n${asText(chunks)}` : `The retriever returned:\n${asJson(chunks)}`;
  return {
    id: `held-kb-chunks-${variant}-${queryNumber}`,
    category: 'RAG and tool-heavy',
    pattern: `top-20 knowledge-base chunks with path and similarity (${variant}${kind})`,
    question,
    body: { model: MODEL, messages: [{ role: 'system', content: 'Answer from the knowledge-base chunks the user gives you and cite the chunk ids you rely on.' }, { role: 'user', content: `${question}\n\n${paste}` }] },
    facts: answers.flatMap((answer) => [answer.id, answer.document.title]),
    source: `Cranfield query ${queryNumber}: its judged answers (codes 1–2) and the unjudged documents with the highest word cosine, 20 in all, as chunks with an id, a path and that cosine; facts: each answer's chunk id and title`,
  };
}

export function heldOutRetrievalWorkloads(): Workload[] {
  const documents = cranfieldDocuments();
  const queries = candidateQueries();
  const byOverlap = [...queries].sort((a, b) => answerOverlap(a, documents) - answerOverlap(b, documents) || a - b);
  const otherWords = byOverlap.slice(0, 2);
  const sameWords = queries.filter((query) => !otherWords.includes(query)).slice(0, 3);
  return [
    chunkWorkload(sameWords[0]!, documents, 'text', ''),
    chunkWorkload(sameWords[1]!, documents, 'text', ''),
    chunkWorkload(sameWords[2]!, documents, 'json', ''),
    chunkWorkload(otherWords[0]!, documents, 'text', ', the chunks use other words'),
    chunkWorkload(otherWords[1]!, documents, 'json', ', the chunks use other words'),
  ];
}
