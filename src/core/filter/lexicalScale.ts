/**
 * The shared lexical scorer calibrated to the filter's 0–3 scale. Two signals, both
 * absolute (not relative to the other candidates, so an all-unrelated batch scores low):
 * coverage — the share of the question's content words the item contains — and the BM25
 * score normalized by the best reachable score. Surface words (stop words) never count.
 */
import { scoreLexically, tokenizeForSearch } from '../relevance';

/** Words that carry no topic: sharing only these is "shares surface words" (score 0). */
const SURFACE_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'if', 'then', 'else', 'of', 'to', 'in', 'on', 'at', 'by', 'for', 'with', 'from', 'into', 'as',
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'do', 'doe', 'does', 'did', 'have', 'has', 'had', 'it', 'its', 'this', 'that', 'these', 'those',
  'i', 'you', 'he', 'she', 'we', 'they', 'me', 'my', 'our', 'your', 'their', 'what', 'which', 'who', 'whom', 'how', 'why', 'when', 'where',
  'can', 'could', 'should', 'would', 'will', 'shall', 'may', 'might', 'must', 'not', 'no', 'yes', 'so', 'than', 'too', 'very', 'just',
  'about', 'any', 'all', 'some', 'there', 'here', 'get', 'use', 'using', 'make', 'way', 'one',
]);

export interface LexicalScore {
  /** Expected relevance on the 0–3 scale. */
  readonly score: number;
  readonly reason: string;
}

/** Content words of a text, stemmed as the search tokenizer stems them. */
export function contentTerms(text: string): string[] {
  return [...new Set(tokenizeForSearch(text))].filter((term) => !SURFACE_WORDS.has(term) && term.length > 1);
}

export function scoreOnScale(question: string, documents: readonly string[]): LexicalScore[] {
  const wanted = contentTerms(question);
  const bm25 = scoreLexically(wanted.join(' '), documents);
  return documents.map((document, index) => {
    if (wanted.length === 0) return { score: 0, reason: 'the question has no content words to match' };
    const present = new Set(tokenizeForSearch(document));
    const matched = wanted.filter((term) => present.has(term));
    const coverage = matched.length / wanted.length;
    const strength = Math.min(1, (bm25[index] ?? 0) * 4);
    // Coverage dominates; BM25 rewards items where the matched words are central, not incidental.
    const score = matched.length === 0 ? 0 : Math.min(3, 3 * (0.7 * Math.sqrt(coverage) + 0.3 * strength));
    const rounded = Math.round(score * 100) / 100;
    const reason = matched.length === 0
      ? 'shares no content words with the question'
      : `matches ${matched.length} of ${wanted.length} question words (${matched.slice(0, 5).join(', ')}${matched.length > 5 ? ', …' : ''})`;
    return { score: rounded, reason };
  });
}
