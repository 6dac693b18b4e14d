/** Question words: what a caller asked about, so lines and rows mentioning it are kept. */

const STOP_WORDS = new Set([
  'the', 'and', 'for', 'with', 'that', 'this', 'what', 'which', 'where', 'when', 'why', 'how', 'who', 'are', 'was', 'were', 'from',
  'into', 'does', 'did', 'have', 'has', 'not', 'any', 'all', 'can', 'you', 'show', 'find', 'list', 'get', 'about', 'there', 'their',
]);

/** The distinct words of a question worth matching: three characters or more, no stop words, lower case. */
export function questionWords(question: string | undefined): string[] {
  if (question === undefined) return [];
  return [...new Set(question.toLowerCase().match(/[\p{L}\p{N}_-]{3,}/gu) ?? [])].filter((word) => !STOP_WORDS.has(word));
}

/** Whether a text mentions any of the words (case-insensitive). */
export function mentionsAny(text: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const lower = text.toLowerCase();
  return words.some((word) => lower.includes(word));
}
